import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, test } from 'vitest';

const featuresDir = dirname(fileURLToPath(import.meta.url));
const srcDir = resolve(featuresDir, '..');

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

const importPattern = /(?:import|export)[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g;

/** Bulletproof-react's rule: a feature is used by the app, never by another feature. */
test('features import neither each other nor the app layer', () => {
  const violations: string[] = [];
  for (const feature of readdirSync(featuresDir).filter((name) =>
    statSync(join(featuresDir, name)).isDirectory(),
  )) {
    for (const file of sourceFiles(join(featuresDir, feature))) {
      for (const match of readFileSync(file, 'utf8').matchAll(importPattern)) {
        const specifier = match[1] ?? match[2] ?? '';
        if (!specifier.startsWith('.')) continue;
        const target = relative(srcDir, resolve(dirname(file), specifier));
        const [top, name] = target.split(/[\\/]/);
        if (top === 'app' || (top === 'features' && name !== feature)) {
          violations.push(`${relative(srcDir, file)} -> ${specifier}`);
        }
      }
    }
  }
  expect(violations).toEqual([]);
});
