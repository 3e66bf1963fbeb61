import type { IndexedCreative, IndexedWidget, Referrer } from '../ad-index.ts';
import type { Visitor } from '../visitor/visitor.ts';
import type { DspWin, Exchange } from './exchange.ts';

/** Our own eCPM of a creative: CPC × predicted CTR (topctr's score, from the rollups) × 1000, micro-units. */
export const ownEcpm = (c: IndexedCreative): bigint =>
  BigInt(Math.round(Number(c.campaign.clickprice) * c.score * 1000));

/**
 * Offers the first slot of a native answer to the DSP partners (engine.ts calls this only when one is
 * active). Our contender is the answer's best creative by eCPM. When a partner wins, the answer makes room:
 * it keeps `wanted` items in all (the last sponsored pick, or the last organic item, gives way).
 */
export async function offerSlot(
  exchange: Exchange,
  chosen: {
    plan: { auction?: boolean | undefined };
    picks: { creative: IndexedCreative; feed?: unknown }[];
    organic: unknown[];
  },
  ctx: {
    widget: IndexedWidget;
    visitor: Visitor;
    req: {
      visitorId: string;
      pageUrl: string | null;
      headers: Readonly<Record<string, string | string[] | undefined>>;
    };
    wanted: number;
    /** The publisher's referrer, for the split of the partner's payment. */
    referrer?: Referrer | undefined;
  },
): Promise<DspWin | null> {
  const { plan } = chosen;
  if (!plan.auction || ctx.visitor.bot) return null;
  let best: IndexedCreative | null = null;
  let bestEcpm = -1n;
  for (const p of chosen.picks) {
    const e = ownEcpm(p.creative);
    if (e > bestEcpm) {
      best = p.creative;
      bestEcpm = e;
    }
  }
  const win = await exchange.fill({
    widget: ctx.widget,
    visitor: ctx.visitor,
    visitorId: ctx.req.visitorId,
    userAgent: String(ctx.req.headers['user-agent'] ?? ''),
    pageUrl: ctx.req.pageUrl,
    own: best ? { campaignId: best.campaign.id, ecpm: bestEcpm } : null,
    referrer: ctx.referrer,
  });
  if (!win) return null;
  const room = Math.max(0, ctx.wanted - 1);
  chosen.picks = chosen.picks.slice(0, room);
  chosen.organic = chosen.organic.slice(0, Math.max(0, room - chosen.picks.length));
  return win;
}
