import { afterEach, describe, expect, test, vi } from 'vitest';
import type { SettingsRepository } from './settings.repository.ts';
import { createSettings } from './settings.service.ts';

/** A key/value store; `hold()` makes the next read take the row at once but answer only at `release()`. */
function slowRepo() {
  const rows = new Map<string, string>();
  let gate: Promise<void> | null = null;
  const repo: SettingsRepository = {
    async read(key) {
      const value = rows.get(key);
      const wait = gate;
      gate = null;
      if (wait) await wait;
      return value;
    },
    async write(key, value) {
      rows.set(key, value);
    },
  };
  const hold = () => {
    let release = () => {};
    gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    return release;
  };
  return { repo, hold };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the maintenance switch as an instance caches it', () => {
  test('a read under way while the switch is turned off does not keep the "on" it read', async () => {
    const { repo, hold } = slowRepo();
    const settings = createSettings(repo, { minPayout: 10 });
    await settings.setMaintenance(true);
    // 5 s later the cached answer is too old: the next ask reads the database, and that read is slow
    const now = Date.now();
    vi.spyOn(Date, 'now').mockReturnValue(now + 5_000);
    const release = hold();
    const slow = settings.maintenance();
    // meanwhile the admin turns it off
    expect((await settings.setMaintenance(false)).enabled).toBe(false);
    release();
    // the slow read had taken the row before the write: its caller is told the switch as it is now
    expect((await slow).enabled).toBe(false);
    // and the next asks, within the 2 s the cache is trusted, are not told "on" either
    expect((await settings.maintenance()).enabled).toBe(false);
  });
});
