import { spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from 'vitest';
import { freePort } from './global-setup.ts';

const root = join(import.meta.dirname, '..');

/**
 * `npm run demo`, the README's way to see the product work, end to end: on a fresh embedded database it
 * seeds every account through the API, drives visitors through the real delivery endpoints and prints
 * what the API reports. A short run (DEMO_EXIT=1) must end well, with live numbers for every campaign.
 */
test('the demo seeds the accounts, drives visitors without errors and reports live numbers', {
  timeout: 180_000,
}, async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'adp-demo-'));
  try {
    const child = spawn(process.execPath, ['scripts/demo.mjs'], {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(await freePort()),
        DATA_DIR: dataDir,
        DEMO_VISITORS: '150',
        DEMO_SECONDS: '4',
        DEMO_EXIT: '1',
        LOG_LEVEL: 'error',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.stderr.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code, out).toBe(0);
    expect(out).toMatch(/done in \d+ s: 150 visitors .*, 0 errors/);
    // every campaign served and was clicked; every demo account is listed with its balance
    const campaigns = [
      ...out.matchAll(/campaign «(.+?)»: balance \$[\d.]+, (\d+) impressions, (\d+) clicks/g),
    ];
    expect(campaigns.map((c) => c[1])).toHaveLength(4);
    for (const [line, , impressions] of campaigns) expect(Number(impressions), line).toBeGreaterThan(0);
    for (const account of ['publisher', 'publisher2', 'advertiser', 'advertiser2', 'agency', 'member'])
      expect(out).toContain(`${account}@demo.local: balance $`);
    // the pixel's audience and the landing page's form, used through their public endpoints, as the API
    // reports them: the audience saw its remarketing creative, the sign-ups are leads
    const [, visitors, impressions] =
      out.match(/(\d+) visitors in its audience; its remarketing creative: (\d+) impressions/) ?? [];
    expect(Number(visitors), out).toBeGreaterThan(0);
    expect(Number(impressions), out).toBeGreaterThan(0);
    const [, leads] = out.match(/landing page «Habla free week»: (\d+) leads/) ?? [];
    expect(Number(leads), out).toBeGreaterThan(0);
  } finally {
    await rm(dataDir, { recursive: true, force: true });
  }
});
