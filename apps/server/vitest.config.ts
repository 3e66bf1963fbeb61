import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'server',
    environment: 'node',
    // each file starts its own database; PGlite needs a moment to boot on 2 cores
    testTimeout: 30_000,
    hookTimeout: 60_000,
    pool: 'forks',
    globalSetup: ['./src/test/global-setup.ts'],
  },
});
