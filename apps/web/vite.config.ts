import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import postcssPresetMantine from 'postcss-preset-mantine';
import { defineConfig } from 'vite';

const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

export default defineConfig({
  plugins: [react()],
  css: { postcss: { plugins: [postcssPresetMantine()] } },
  server: {
    port: 5173,
    // The locale JSON files live in packages/i18n, outside this app's root.
    fs: { allow: [workspaceRoot] },
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:8080', changeOrigin: true } },
  },
  // The workspace packages ship TypeScript source; keep them out of the dependency pre-bundle so Vite transpiles them.
  optimizeDeps: { exclude: ['@adp/contract', '@adp/permissions', '@adp/i18n'] },
  build: { outDir: 'dist', emptyOutDir: true, chunkSizeWarningLimit: 1200 },
});
