import { defineConfig } from 'vitest/config';
import { E2E_WORKERS } from './global-setup.ts';

/** Browser flows against the built server: `npm run build && npm run test:e2e`. Not part of `vitest run`. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['**/*.test.ts'],
    environment: 'node',
    globalSetup: ['./global-setup.ts'],
    // E2E_WORKERS files at once (2 by default), each worker with its own server (global-setup.ts) and each
    // file with its own Chromium; a worker's files run one after another.
    maxWorkers: E2E_WORKERS,
    testTimeout: 60_000,
    hookTimeout: 120_000,
  },
});
