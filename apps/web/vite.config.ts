import { dirname, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import postcssPresetMantine from 'postcss-preset-mantine';
import { defineConfig } from 'vite';

const workspaceRoot = fileURLToPath(new URL('../..', import.meta.url));

const entry = fileURLToPath(new URL('src/main.tsx', import.meta.url));

/** The guest pages: what they import statically is downloaded by /login, /register and /forgot-password. */
const guestPages = ['login-page.tsx', 'register-page.tsx', 'forgot-password-page.tsx'].map((file) =>
  fileURLToPath(new URL(`src/features/auth/${file}`, import.meta.url)),
);

type ModuleInfo = { code: string | null; importedIds: readonly string[] } | null;
type GetModuleInfo = (id: string) => ModuleInfo;

const namedBindings = /(?:import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g;

/** `import { A, B as C } from 'x'` and `export { default as D } from 'x'`: name → specifier, per module. */
function bindings(code: string, side: 'imported' | 'exported'): Map<string, string> {
  const names = new Map<string, string>();
  for (const [, list = '', from = ''] of code.matchAll(namedBindings)) {
    for (const binding of list.split(',')) {
      const [name, alias] = binding
        .replace(/\btype\s+/, '')
        .trim()
        .split(/\s+as\s+/);
      if (name) names.set(side === 'imported' ? name : (alias ?? name), from);
    }
  }
  return names;
}

/** A package's index file made only of re-exports (Mantine, its hooks, the icons). */
const isBarrel = (id: string, code: string | null) =>
  id.includes('/node_modules/') &&
  code !== null &&
  code
    .replace(/\/\*[\s\S]*?\*\/|\/\/[^\n]*|["']use client["'];?/g, '')
    .replace(/(?:import|export)[^;]*?from\s*["'][^"']+["'];?|export\s*\{[^}]*\};?/g, '')
    .trim() === '';

/**
 * The modules the guest pages import statically, following a package's barrel only to the names they
 * import from it (all of Mantine is one barrel away).
 */
function guestModules(getModuleInfo: GetModuleInfo): Set<string> {
  const seen = new Set<string>();
  const walk = (id: string) => {
    if (seen.has(id)) return;
    seen.add(id);
    const info = getModuleInfo(id);
    const used = bindings(info?.code ?? '', 'imported');
    for (const imported of info?.importedIds ?? []) {
      const target = getModuleInfo(imported);
      if (!isBarrel(imported, target?.code ?? null)) {
        walk(imported);
        continue;
      }
      const exported = bindings(target?.code ?? '', 'exported');
      const barrelDir = dirname(imported);
      for (const [name, from] of used) {
        if (!imported.includes(`/node_modules/${from}/`)) continue;
        const source = exported.get(name);
        if (source?.startsWith('.')) walk(resolvePath(barrelDir, source));
      }
    }
  };
  const roots = [entry, ...guestPages];
  for (const root of roots) walk(root);
  // the entry and the pages keep chunks of their own (index.html's script, the routes' lazy imports)
  for (const root of roots) seen.delete(root);
  return seen;
}

/**
 * One chunk for the first screen: every module the entry and the guest pages import statically (React, the parts of
 * Mantine they use, our form helpers) instead of some thirty small shared chunks that each compress on
 * their own (about 7 KB more gzipped). Dashboard pages share it; lazy imports stay lazy.
 */
function guestChunk() {
  let members: Set<string> | null = null;
  return (id: string, { getModuleInfo }: { getModuleInfo: GetModuleInfo }) => {
    members ??= guestModules(getModuleInfo);
    return members.has(id) ? 'guest' : null;
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react()],
  css: { postcss: { plugins: [postcssPresetMantine()] } },
  resolve: {
    // react-router's package exports only its development build (warnings, dev checks); builds take the
    // production one it ships beside it.
    alias:
      command === 'build'
        ? [
            {
              find: /^react-router$/,
              replacement: fileURLToPath(
                new URL('../../node_modules/react-router/dist/production/index.mjs', import.meta.url),
              ),
            },
          ]
        : [],
  },
  server: {
    port: 5173,
    // The locale JSON files live in packages/i18n, outside this app's root.
    fs: { allow: [workspaceRoot] },
    proxy: { '/api': { target: process.env.API_URL ?? 'http://localhost:8080', changeOrigin: true } },
  },
  // The workspace packages ship TypeScript source; keep them out of the dependency pre-bundle so Vite transpiles them.
  optimizeDeps: { exclude: ['@adp/contract', '@adp/permissions', '@adp/i18n'] },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    chunkSizeWarningLimit: 1200,
    rollupOptions: { output: { manualChunks: guestChunk() } },
  },
}));
