// @vitest-environment node
// esbuild refuses to run under jsdom (its TextEncoder is not Node's), and the bundle needs no DOM.
import { expect, test } from 'vitest';
import { BUDGET, bundle } from '../build.mjs';

test('the minified embed script stays within its gzipped size budget', async () => {
  const { code, gzipped } = await bundle();
  expect(code).not.toMatch(/\bzod\b/);
  expect(gzipped).toBeGreaterThan(0);
  expect(gzipped).toBeLessThanOrEqual(BUDGET);
}, 30_000);
