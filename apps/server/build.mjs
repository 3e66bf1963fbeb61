// Bundles the server and the workspace packages it imports (TypeScript sources) into dist/main.js;
// npm dependencies stay external and load from node_modules.

import { readFileSync } from 'node:fs';
import { build } from 'esbuild';

const pkg = JSON.parse(readFileSync(new URL('./package.json', import.meta.url), 'utf8'));
const external = Object.keys(pkg.dependencies ?? {}).filter((d) => !d.startsWith('@adp/'));
await build({
  entryPoints: ['src/main.ts'],
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'esm',
  sourcemap: true,
  external: [...external, 'zod', 'zod/*', '@casl/ability', 'i18next'],
  logLevel: 'warning',
});
console.log('server built: apps/server/dist/main.js');
