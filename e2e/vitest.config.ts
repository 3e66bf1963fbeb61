import { defineConfig } from 'vitest/config';

/** Browser flows against the built server: `npm run build && npm run test:e2e`. Not part of `vitest run`. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    // One server and one Chromium per file; running files one after another keeps a 2-core machine responsive.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
