import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Finds `relative` in the nearest ancestor of this module's folder. The same code runs from src/<dir>/
 * (tests, tsx) and from the bundled dist/main.js, which sit at different depths.
 */
export function findUp(relative: string, from = dirname(fileURLToPath(import.meta.url))): string {
  let dir = from;
  for (let i = 0; i < 8; i++) {
    const candidate = join(dir, relative);
    if (existsSync(candidate)) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`cannot find ${relative} above ${from}`);
}
