import {
  fromMicros,
  type MaintenanceState,
  type PlatformSettings,
  type PlatformSettingsUpdate,
  toMicros,
} from '@adp/contract';
import type { SettingsRepository } from './settings.repository.ts';

const MIN_PAYOUT = 'min_payout';
const LOW_CAMPAIGN_BALANCE = 'low_campaign_balance';
const LOW_ACCOUNT_BALANCE = 'low_account_balance';
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

/** The low-balance thresholds, micro-units (0: not told). */
export interface LowBalanceThresholds {
  campaign: bigint;
  account: bigint;
}

/**
 * Platform settings kept in the database, so every instance and every restart sees the same values. Until an
 * admin saves one, its value is the configured default (MIN_PAYOUT, LOW_CAMPAIGN_BALANCE, LOW_ACCOUNT_BALANCE).
 */
export function createSettings(
  repo: SettingsRepository,
  defaults: { minPayout: number; lowCampaignBalance?: bigint; lowAccountBalance?: bigint },
) {
  // every dashboard call of a non-admin asks: read at most once per MAINTENANCE_CACHE_MS per instance
  let maintenanceCache: { state: MaintenanceState; at: number } | null = null;
  // counts this instance's switches: a read under way while the switch was written must not cache what it
  // read before the write (an advertiser's "Check again" would be told "on" for 2 s after the admin's "off")
  let switches = 0;
  const micros = async (key: string, fallback: bigint) => {
    const v = await repo.read(key);
    return v === undefined ? fallback : BigInt(v);
  };
  return {
    minPayoutMicros(): Promise<bigint> {
      return micros(MIN_PAYOUT, toMicros(defaults.minPayout));
    },
    async lowBalanceThresholds(): Promise<LowBalanceThresholds> {
      const [campaign, account] = await Promise.all([
        micros(LOW_CAMPAIGN_BALANCE, defaults.lowCampaignBalance ?? 0n),
        micros(LOW_ACCOUNT_BALANCE, defaults.lowAccountBalance ?? 0n),
      ]);
      return { campaign, account };
    },
    async get(): Promise<PlatformSettings> {
      const [minPayout, low] = await Promise.all([this.minPayoutMicros(), this.lowBalanceThresholds()]);
      return {
        min_payout: fromMicros(minPayout),
        low_campaign_balance: fromMicros(low.campaign),
        low_account_balance: fromMicros(low.account),
      };
    },
    /** Writes the settings `input` names; the others keep their values. */
    async update(input: PlatformSettingsUpdate): Promise<PlatformSettings> {
      const named: [string, number | undefined][] = [
        [MIN_PAYOUT, input.min_payout],
        [LOW_CAMPAIGN_BALANCE, input.low_campaign_balance],
        [LOW_ACCOUNT_BALANCE, input.low_account_balance],
      ];
      for (const [key, value] of named)
        if (value !== undefined) await repo.write(key, toMicros(value).toString());
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
