import { fromMicros, type MaintenanceState, type PlatformSettings, toMicros } from '@adp/contract';
import type { SettingsRepository } from './settings.repository.ts';

const MIN_PAYOUT = 'min_payout';
const MAINTENANCE = 'maintenance';
/** How long an instance trusts the maintenance switch it read (another instance may have switched it). */
const MAINTENANCE_CACHE_MS = 2_000;

function readMaintenance(raw: string | undefined): MaintenanceState {
  if (raw === undefined) return { enabled: false, changed_at: null };
  try {
    const v = JSON.parse(raw) as { enabled?: unknown; changed_at?: unknown };
    return {
      enabled: v.enabled === true,
      changed_at: typeof v.changed_at === 'string' ? v.changed_at : null,
    };
  } catch {
    return { enabled: false, changed_at: null };
  }
}

/** Platform settings kept in the database, so every instance and every restart sees the same values. */
export function createSettings(repo: SettingsRepository, defaults: { minPayout: number }) {
  // every dashboard call of a non-admin asks: read at most once per MAINTENANCE_CACHE_MS per instance
  let maintenanceCache: { state: MaintenanceState; at: number } | null = null;
  // counts this instance's switches: a read under way while the switch was written must not cache what it
  // read before the write (an advertiser's "Check again" would be told "on" for 2 s after the admin's "off")
  let switches = 0;
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
    /** The maintenance switch, as this instance last read it (at most 2 s old). */
    async maintenance(): Promise<MaintenanceState> {
      if (maintenanceCache && Date.now() - maintenanceCache.at < MAINTENANCE_CACHE_MS)
        return maintenanceCache.state;
      const asked = switches;
      const state = readMaintenance(await repo.read(MAINTENANCE));
      if (asked !== switches && maintenanceCache) return maintenanceCache.state;
      maintenanceCache = { state, at: Date.now() };
      return state;
    },
    async setMaintenance(enabled: boolean): Promise<MaintenanceState> {
      const current = readMaintenance(await repo.read(MAINTENANCE));
      const state =
        current.enabled === enabled && current.changed_at
          ? current
          : { enabled, changed_at: new Date().toISOString() };
      await repo.write(MAINTENANCE, JSON.stringify(state));
      switches += 1;
      maintenanceCache = { state, at: Date.now() };
      return state;
    },
  };
}
export type SettingsService = ReturnType<typeof createSettings>;
