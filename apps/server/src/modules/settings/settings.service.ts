import { fromMicros, type PlatformSettings, toMicros } from '@adp/contract';
import type { SettingsRepository } from './settings.repository.ts';

const MIN_PAYOUT = 'min_payout';

/** Platform settings kept in the database, so every instance and every restart sees the same values. */
export function createSettings(repo: SettingsRepository, defaults: { minPayout: number }) {
  return {
    async minPayoutMicros(): Promise<bigint> {
      const v = await repo.read(MIN_PAYOUT);
      return v === undefined ? toMicros(defaults.minPayout) : BigInt(v);
    },
    async get(): Promise<PlatformSettings> {
      return { min_payout: fromMicros(await this.minPayoutMicros()) };
    },
    async update(input: PlatformSettings): Promise<PlatformSettings> {
      await repo.write(MIN_PAYOUT, toMicros(input.min_payout).toString());
      return this.get();
    },
  };
}
export type SettingsService = ReturnType<typeof createSettings>;
