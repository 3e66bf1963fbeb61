import type { SharedStore } from '../lib/shared-store.ts';
import type { IndexedCampaign } from './ad-index.ts';
import type { DeliveryRepository } from './delivery.repository.ts';

const DAY_MS = 86_400_000;
const TWO_DAYS_MS = 2 * DAY_MS;

/** The day `dayOf` named last (days since the epoch) and its text: every click asks, the day rarely changes. */
let lastDay = Number.NaN;
let lastDayText = '';
/** The UTC day of a moment, `YYYY-MM-DD`: the period of daily clicks and daily budgets. */
export function dayOf(ms: number): string {
  const day = Math.floor(ms / DAY_MS);
  if (day !== lastDay) {
    lastDayText = new Date(day * DAY_MS).toISOString().slice(0, 10);
    lastDay = day;
  }
  return lastDayText;
}

/**
 * Daily clicks and spend per campaign in the shared store (in-process, or Redis shared by every
 * instance), with a local copy refreshed every `refreshMs` for decisions: serving reads memory only, while
 * a click reserves its place atomically in the store, so limits hold across instances. Pacing `even`
 * spreads a daily limit over the day: a campaign ahead of the day's schedule (plus a quarter hour's share)
 * waits until the clock catches up; `asap` spends as fast as traffic comes.
 */
export function createCampaignCounters(
  store: SharedStore,
  opts: { refreshMs?: number; now?: () => number } = {},
) {
  const now = opts.now ?? Date.now;
  const local = new Map<number, { clicks: number; spent: number }>();
  let day = dayOf(now());
  let watched: IndexedCampaign[] = [];
  const keys = (d: string, id: number) => [`dc:${d}:${id}`, `ds:${d}:${id}`] as const;

  async function refresh() {
    const today = dayOf(now());
    if (today !== day) {
      day = today;
      local.clear();
    }
    if (watched.length === 0) return;
    const values = await store.values(watched.flatMap((c) => keys(day, c.id)));
    watched.forEach((c, i) => {
      local.set(c.id, { clicks: values[2 * i] ?? 0, spent: values[2 * i + 1] ?? 0 });
    });
  }
  const timer = setInterval(() => {
    refresh().catch(() => {
      // the store is away: keep deciding with the last values; clicks still reserve atomically
    });
  }, opts.refreshMs ?? 500);
  timer.unref();

  const limited = (c: IndexedCampaign) => c.dailyclicks > 0 || c.dailyBudget !== null;

  return {
    /** The campaigns of the current index: only those with a daily limit are followed. */
    watch(campaigns: Iterable<IndexedCampaign>) {
      watched = [...campaigns].filter(limited);
      return refresh();
    },
    refresh,
    /** Serving's verdict, from memory: under its daily limits and, with even pacing, on schedule. */
    mayServe(c: IndexedCampaign): boolean {
      if (!limited(c)) return true;
      const used = local.get(c.id) ?? { clicks: 0, spent: 0 };
      const t = now();
      const fraction = (t - Date.parse(`${dayOf(t)}T00:00:00Z`)) / DAY_MS;
      if (c.dailyclicks > 0) {
        if (used.clicks >= c.dailyclicks) return false;
        if (c.pacing === 'even' && used.clicks >= c.dailyclicks * fraction + Math.max(1, c.dailyclicks / 96))
          return false;
      }
      if (c.dailyBudget !== null) {
        const budget = Number(c.dailyBudget);
        if (used.spent + Number(c.clickprice) > budget) return false;
        if (
          c.pacing === 'even' &&
          used.spent >= budget * fraction + Math.max(Number(c.clickprice), budget / 96)
        )
          return false;
      }
      return true;
    },
    /**
     * A click's place under the campaign's daily limits, taken atomically in the shared store; `release`
     * gives it back when the click ends up not charged. Null when a limit is reached.
     */
    async reserve(
      c: IndexedCampaign,
      price: bigint,
    ): Promise<{ release: () => Promise<void> } | { limit: string }> {
      const d = dayOf(now());
      const [clickKey, spendKey] = keys(d, c.id);
      const taken: [string, number][] = [];
      const release = async () => {
        for (const [k, by] of taken) await store.add(k, -by, TWO_DAYS_MS);
        const mine = local.get(c.id);
        if (mine) {
          mine.clicks -= 1;
          mine.spent -= Number(price);
        }
      };
      // counted whether or not a limit is set now: a limit set (or raised) during the day counts the clicks
      // and spend charged before it
      const n = await store.add(clickKey, 1, TWO_DAYS_MS);
      taken.push([clickKey, 1]);
      if (c.dailyclicks > 0 && n > c.dailyclicks) {
        await release();
        return { limit: 'daily_clicks' };
      }
      const spent = await store.add(spendKey, Number(price), TWO_DAYS_MS);
      taken.push([spendKey, Number(price)]);
      if (c.dailyBudget !== null && spent > Number(c.dailyBudget)) {
        await release();
        return { limit: 'daily_budget' };
      }
      const mine = local.get(c.id) ?? { clicks: 0, spent: 0 };
      mine.clicks += 1;
      mine.spent += Number(price);
      local.set(c.id, mine);
      return { release };
    },
    /** After a restart of an in-process store (or a flushed Redis): today's charges from the database. */
    async seed(repo: DeliveryRepository) {
      const d = dayOf(now());
      const rows = await repo.todaysCharges(new Date(`${d}T00:00:00Z`));
      for (const r of rows) {
        const [clickKey, spendKey] = keys(d, r.campaignId);
        await store.seed(clickKey, r.clicks, TWO_DAYS_MS);
        await store.seed(spendKey, Number(r.spent), TWO_DAYS_MS);
      }
    },
    stop() {
      clearInterval(timer);
    },
  };
}
export type CampaignCounters = ReturnType<typeof createCampaignCounters>;
