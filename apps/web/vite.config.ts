import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve as resolvePath } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import postcssPresetMantine from 'postcss-preset-mantine';
import { defineConfig, type Plugin } from 'vite';

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
 * The modules `root` imports statically, following a package's barrel only to the names imported from
 * it (all of Mantine is one barrel away).
 */
function staticImports(root: string, getModuleInfo: GetModuleInfo): Set<string> {
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
  walk(root);
  // the entry and the pages keep chunks of their own (index.html's script, the routes' lazy imports)
  seen.delete(root);
  return seen;
}

/** What the entry imports, and what all three guest pages import (a page's own extras stay apart). */
function guestModules(getModuleInfo: GetModuleInfo): Set<string> {
  const [first, ...others] = guestPages.map((page) => staticImports(page, getModuleInfo));
  const shared = [...(first ?? [])].filter((id) => others.every((page) => page.has(id)));
  return new Set([...staticImports(entry, getModuleInfo), ...shared]);
}

/**
 * One chunk for the first screen: every module the entry and the guest pages import statically (React,
 * the parts of Mantine they use, our form helpers) instead of some thirty small shared chunks that each compress on
 * their own (about 7 KB more gzipped). Dashboard pages share it; lazy imports stay lazy.
 */
function guestChunk() {
  let members: Set<string> | null = null;
  return (id: string, { getModuleInfo }: { getModuleInfo: GetModuleInfo }) => {
    members ??= guestModules(getModuleInfo);
    return members.has(id) ? 'guest' : null;
  };
}

const localesDir = join(workspaceRoot, 'packages/i18n/locales');

/** Every `<lng>/<ns>.json` of packages/i18n with its text. */
function localeFiles(): { path: string; source: string }[] {
  return readdirSync(localesDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .flatMap((lng) =>
      readdirSync(join(localesDir, lng.name))
        .filter((file) => file.endsWith('.json'))
        .map((file) => ({
          path: `${lng.name}/${file}`,
          source: readFileSync(join(localesDir, lng.name, file), 'utf8'),
        })),
    )
    .sort((a, b) => a.path.localeCompare(b.path));
}

/**
 * The locale files as plain JSON at `assets/locales/<version>/<lng>/<ns>.json` (lib/i18n.ts fetches
 * them): no import map of some 130 hashed chunks in the first load. The version is a hash of all of
 * them, so the files can be cached for good like the other assets.
 */
function localesPlugin(): Plugin {
  const files = localeFiles();
  const version = createHash('sha256')
    .update(files.map((file) => `${file.path}\n${file.source}`).join('\n'))
    .digest('hex')
    .slice(0, 10);
  const base = `assets/locales/${version}`;
  return {
    name: 'adp-locales',
    config: () => ({ define: { __LOCALES_PATH__: JSON.stringify(base) } }),
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const prefix = `/${base}/`;
        const path = req.url?.split('?')[0] ?? '';
        const file = path.startsWith(prefix) ? files.find((f) => f.path === path.slice(prefix.length)) : null;
        if (!file) return next();
        res.setHeader('content-type', 'application/json');
        res.end(readFileSync(join(localesDir, file.path)));
      });
    },
    generateBundle() {
      for (const file of files) {
        this.emitFile({ type: 'asset', fileName: `${base}/${file.path}`, source: file.source });
      }
    },
  };
}

export default defineConfig(({ command }) => ({
  plugins: [react(), localesPlugin()],
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
