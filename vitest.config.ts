import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/server', 'apps/web'],
    // Vitest's default is one worker fewer than the cores: one worker on a 2-core machine, where the
    // run then took twice as long. Two (or cores - 1 where there are more).
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
