import react from '@vitejs/plugin-react';
import { defineProject } from 'vitest/config';

export default defineProject({
  plugins: [react()],
  test: {
    name: 'web',
    root: import.meta.dirname,
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    css: false,
    testTimeout: 40_000,
    // One module graph per worker, not one per file: importing the app (React, Mantine, the pages) again
    // for each of the ~60 files was half the run. setup.ts resets what a file may leave behind (rendered
    // trees, toasts, credentials, language, storage, stubs).
    isolate: false,
    server: { deps: { inline: [/@adp\//, /@mantine\//] } },
  },
});
