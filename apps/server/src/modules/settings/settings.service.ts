import { fromMicros, type PlatformSettings, toMicros } from '@adp/contract';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { settings } from '../../db/schema/index.ts';

const MIN_PAYOUT = 'min_payout';

/** Platform settings kept in the database, so every instance and every restart sees the same values. */
export function createSettings(db: Db, defaults: { minPayout: number }) {
  async function read(key: string): Promise<string | undefined> {
    const [row] = await db.select().from(settings).where(eq(settings.key, key));
    return row?.value;
  }
  async function write(key: string, value: string) {
    await db
      .insert(settings)
      .values({ key, value })
      .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date() } });
  }
  return {
    async minPayoutMicros(): Promise<bigint> {
      const v = await read(MIN_PAYOUT);
      return v === undefined ? toMicros(defaults.minPayout) : BigInt(v);
    },
    async get(): Promise<PlatformSettings> {
      return { min_payout: fromMicros(await this.minPayoutMicros()) };
    },
    async update(input: PlatformSettings): Promise<PlatformSettings> {
      await write(MIN_PAYOUT, toMicros(input.min_payout).toString());
      return this.get();
    },
  };
}
export type SettingsService = ReturnType<typeof createSettings>;
