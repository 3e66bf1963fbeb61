// Bundles the embed script publishers paste and holds it to its size budget: the script loads on
// every publisher page, so a regression in its weight is a regression for every site.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import { build } from 'esbuild';

const here = dirname(fileURLToPath(import.meta.url));
export const BUDGET = 12 * 1024;
export const OUTFILE = join(here, 'dist', 'widget.js');

/**
 * Bundles src/embed.ts into one minified IIFE in memory.
 * @returns {Promise<{ code: string, minified: number, gzipped: number }>}
 */
export async function bundle() {
  const result = await build({
    entryPoints: [join(here, 'src', 'embed.ts')],
    bundle: true,
    minify: true,
    format: 'iife',
    target: 'es2018',
    platform: 'browser',
    legalComments: 'none',
    write: false,
    logLevel: 'silent',
  });
  const file = result.outputFiles[0];
  if (!file) throw new Error('esbuild produced no output');
  const code = file.text;
  return { code, minified: Buffer.byteLength(code), gzipped: gzipSync(code, { level: 9 }).length };
}

async function main() {
  const { code, minified, gzipped } = await bundle();
  mkdirSync(dirname(OUTFILE), { recursive: true });
  writeFileSync(OUTFILE, code);
  const kb = (/** @type {number} */ n) => `${(n / 1024).toFixed(2)} KB`;
  console.log(`dist/widget.js: ${kb(minified)} minified, ${kb(gzipped)} gzipped (budget ${kb(BUDGET)})`);
  if (gzipped > BUDGET) {
    console.error(`widget.js is over its size budget by ${gzipped - BUDGET} bytes gzipped`);
    process.exit(1);
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
