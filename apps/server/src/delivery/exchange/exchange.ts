import { fromMicros, toMicros, type WidgetItem } from '@adp/contract';
import { createLogLimiter } from '../../lib/log-limiter.ts';
import { safeFetch } from '../../lib/safe-fetch.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import type { DspRollupDelta } from '../../modules/dsp-partners/dsp-stats.repository.ts';
import type { DspWinBooking } from '../../modules/dsp-partners/dsp-wins.ts';
import type { IndexedWidget, Referrer } from '../ad-index.ts';
import { dayOf } from '../counters.ts';
import { hourOf } from '../delivery.repository.ts';
import { dspSplit } from '../money-split.ts';
import { randomString } from '../random-pool.ts';
import type { Visitor } from '../visitor/visitor.ts';
import { type AdapterPartner, type Bidder, callBidder, openRtbBidder, type TypedBid } from './adapter.ts';
import { type BidRequest, fillAuctionMacros, nativeRequest } from './openrtb.ts';

/** A DSP partner as the auction holds it (from dsp_partners and its blacklist items). */
export interface LivePartner extends AdapterPartner {
  id: number;
  name: string;
  dailyMoneyLimit: bigint | null;
  dailyBudgetLimit: number | null;
  maxRequestTime: number;
  whitelist: string[];
  blacklist: string[];
  adPosition: number;
}

/** One slot offered to the DSP partners, and our own best candidate for it. */
export interface SlotOffer {
  widget: IndexedWidget;
  visitor: Visitor;
  visitorId: string;
  userAgent: string;
  pageUrl: string | null;
  /** Our own best creative for the slot: its campaign and eCPM (CPC × predicted CTR × 1000, micro-units). */
  own: { campaignId: number; ecpm: bigint } | null;
  /** The publisher's referrer (its percent of the platform's income from the win), when it has one. */
  referrer?: Referrer | undefined;
}

/** A DSP partner's ad that won the slot. */
export interface DspWin {
  partnerId: number;
  item: WidgetItem;
  /** The clearing CPM, micro-units. */
  price: bigint;
  /** The auction's id: the win's booking key in `dsp_wins`. */
  winId: string;
}

export interface ExchangeDeps {
  load: () => Promise<LivePartner[]>;
  stats: {
    /** The flush: hourly counts and the wins' money, in one transaction (dsp-stats.repository.ts). */
    write: (d: DspRollupDelta[], wins: DspWinBooking[]) => Promise<void>;
    today: () => Promise<{ dspPartnerId: number; requests: number; revenue: string }[]>;
  };
  store: SharedStore;
  /** Our domain (PUBLIC_URL's host): the `asi` of our node in `source.schain`. */
  schainDomain: string;
  currency?: string;
  allowLoopback?: boolean | undefined;
  bidder?: Bidder;
  flushMs?: number;
  /** The window of the rate-limited warn lines (a failing partner or notice URL: one line per window). */
  logWindowMs?: number;
  log: { warn: (o: object, msg: string) => void; error: (o: object, msg: string) => void };
}

const TWO_DAYS_MS = 2 * 86_400_000;
/** The clearing price is the second price plus one cent (per mille), never above the winner's own bid. */
const INCREMENT = 10_000n;
/** OpenRTB loss reason codes (list 5.25 of 2.6): 100 below the floor, 102 lost to a higher bid. */
const LOSS_BELOW_FLOOR = 100;
const LOSS_HIGHER_BID = 102;

const devicetypes: Record<string, number> = { desktop: 2, mobile: 4, tablet: 5, tv: 3 };

/** Whether `domain` (or the site id) is one of `list`; a listed domain covers its subdomains. */
export function listed(list: readonly string[], siteId: number, domain: string): boolean {
  const id = String(siteId);
  for (const e of list) if (e === id || domain === e || domain.endsWith(`.${e}`)) return true;
  return false;
}

/**
 * The outbound auction (issue 11, README "Exchange"): a widget slot is offered to every eligible DSP
 * partner at once (active, the site on its whitelist if it has one and not on its blacklist, under its
 * daily request and money limits), each within its max request time; the best bid competes with our own
 * best creative by eCPM; a DSP bid wins only above it (ties go to our campaign) and pays the second price.
 * The winner's `nurl` and the losers' `lurl` are fired, and every call is counted in `dsp_rollups`.
 */
export function createExchange(deps: ExchangeDeps) {
  const bidder = deps.bidder ?? openRtbBidder;
  const currency = deps.currency ?? 'USD';
  let partners: LivePartner[] = [];
  let buffer: DspRollupDelta[] = [];
  /** Won slots whose money is booked by the next flush (each once: dsp_wins' unique win id). */
  let winBuffer: DspWinBooking[] = [];
  const moneyKey = (id: number) => `dspm:${dayOf(Date.now())}:${id}`;
  const requestKey = (id: number) => `dspr:${dayOf(Date.now())}:${id}`;

  let lastFlushAt: number | null = null;
  let lastFlushError: string | null = null;
  async function flush() {
    if (!buffer.length && !winBuffer.length) return;
    const rows = buffer;
    const booked = winBuffer;
    buffer = [];
    winBuffer = [];
    try {
      await deps.stats.write(rows, booked);
      lastFlushAt = Date.now();
      lastFlushError = null;
    } catch (err) {
      lastFlushError = (err as Error)?.message ?? String(err);
      buffer = rows.concat(buffer);
      winBuffer = booked.concat(winBuffer);
      deps.log.error({ err }, 'exchange: DSP statistics not written; retrying');
    }
  }
  const timer = setInterval(() => void flush(), deps.flushMs ?? 1000);
  timer.unref();
  // hot path: a partner failing on every request logs one warn line per window with the count it held back
  const partnerLog = createLogLimiter(deps.logWindowMs ?? 60_000);
  const noticeLog = createLogLimiter(deps.logWindowMs ?? 60_000);

  function fire(url: string | undefined, what: string, partnerId: number) {
    if (!url) return;
    safeFetch(url, { timeoutMs: 3000, maxBytes: 16 * 1024, allowLoopback: deps.allowLoopback }).catch(
      (err) => {
        const l = noticeLog.hit(`${partnerId}:${what}`);
        if (l.log)
          deps.log.warn({ err, url, partner: partnerId, suppressed: l.suppressed }, `DSP ${what} failed`);
      },
    );
  }

  /** The partners this slot may be offered to: lists first (memory), then the daily limits (the store). */
  async function eligible(widget: IndexedWidget): Promise<LivePartner[]> {
    const domain = widget.siteDomain.toLowerCase().replace(/^www\./, '');
    const listedOk = partners.filter(
      (p) =>
        (p.whitelist.length === 0 || listed(p.whitelist, widget.siteId, domain)) &&
        !listed(p.blacklist, widget.siteId, domain),
    );
    const withMoney = listedOk.filter((p) => p.dailyMoneyLimit !== null);
    const spent = withMoney.length ? await deps.store.values(withMoney.map((p) => moneyKey(p.id))) : [];
    const spentOf = new Map(withMoney.map((p, i) => [p.id, spent[i] ?? 0]));
    const out: LivePartner[] = [];
    for (const p of listedOk) {
      if (p.dailyMoneyLimit !== null && (spentOf.get(p.id) ?? 0) >= Number(p.dailyMoneyLimit)) continue;
      if (p.dailyBudgetLimit !== null) {
        const n = await deps.store.add(requestKey(p.id), 1, TWO_DAYS_MS);
        if (n > p.dailyBudgetLimit) continue;
      }
      out.push(p);
    }
    return out;
  }

  function requestFor(offer: SlotOffer, p: LivePartner, auctionId: string): BidRequest {
    const { widget, visitor } = offer;
    const floor = offer.own ? fromMicros(offer.own.ecpm) : 0;
    const schain = {
      complete: 1 as const,
      ver: '1.0' as const,
      nodes: [{ asi: deps.schainDomain, sid: String(widget.publisherId), hp: 1 as const }],
    };
    const v6 = visitor.ip.includes(':');
    return {
      id: auctionId,
      imp: [
        {
          id: '1',
          tagid: String(widget.id),
          bidfloor: floor,
          bidfloorcur: currency,
          ...(offer.pageUrl?.startsWith('https:') ? { secure: 1 as const } : {}),
          native: { request: nativeRequest(300, 250), ver: '1.2' },
          ext: { pos: p.adPosition },
        },
      ],
      site: {
        id: String(widget.siteId),
        domain: widget.siteDomain,
        ...(offer.pageUrl ? { page: offer.pageUrl } : {}),
        publisher: { id: String(widget.publisherId) },
      },
      device: {
        ua: offer.userAgent,
        ...(v6 ? { ipv6: visitor.ip } : { ip: visitor.ip }),
        ...(visitor.browserLanguage ? { language: visitor.browserLanguage.slice(0, 2) } : {}),
        ...(visitor.device && devicetypes[visitor.device] ? { devicetype: devicetypes[visitor.device] } : {}),
        ...(visitor.os ? { os: visitor.os } : {}),
        ...(visitor.country || visitor.city
          ? {
              geo: {
                ...(visitor.country ? { country: visitor.country } : {}),
                ...(visitor.city ? { city: visitor.city } : {}),
              },
            }
          : {}),
      },
      user: { id: offer.visitorId },
      at: 2,
      tmax: p.maxRequestTime,
      cur: [currency],
      source: { tid: auctionId, schain },
    };
  }

  /** Asks one partner, never longer than its max request time (the guard's own timer may fire later). */
  async function ask(p: LivePartner, req: BidRequest) {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<{ bids: TypedBid[]; errors: { kind: 'timeout'; message: string }[] }>(
      (resolve) => {
        timer = setTimeout(
          () => resolve({ bids: [], errors: [{ kind: 'timeout', message: 'late' }] }),
          p.maxRequestTime,
        );
      },
    );
    try {
      return await Promise.race([
        callBidder(bidder, req, p, { timeoutMs: p.maxRequestTime, allowLoopback: deps.allowLoopback }),
        late,
      ]);
    } finally {
      clearTimeout(timer);
    }
  }

  return {
    /** Whether any DSP partner is active: serving asks nothing (and waits for nothing) when none is. */
    hasPartners: () => partners.length > 0,
    partners: () => partners,

    async reload() {
      try {
        partners = await deps.load();
      } catch (err) {
        deps.log.error({ err }, 'exchange: DSP partners not reloaded; the previous list keeps serving');
      }
    },

    /** After a restart of an in-process store: today's requests and money per partner from the database. */
    async seed() {
      const d = dayOf(Date.now());
      for (const r of await deps.stats.today()) {
        await deps.store.seed(`dspr:${d}:${r.dspPartnerId}`, Number(r.requests), TWO_DAYS_MS);
        await deps.store.seed(`dspm:${d}:${r.dspPartnerId}`, Number(r.revenue), TWO_DAYS_MS);
      }
    },

    /** Runs the auction of one slot: the DSP's ad when a partner outbids our own best creative, else null. */
    async fill(offer: SlotOffer): Promise<DspWin | null> {
      const asked = await eligible(offer.widget);
      if (!asked.length) return null;
      const auctionId = randomString(16, 'base64url');
      const answers = await Promise.all(
        asked.map(async (p) => {
          const req = requestFor(offer, p, auctionId);
          const r = await ask(p, req);
          if (r.errors.length && !r.bids.length) {
            const l = partnerLog.hit(p.id);
            if (l.log)
              deps.log.warn(
                { partner: p.id, errors: r.errors.slice(0, 3), suppressed: l.suppressed },
                'DSP partner: no usable answer',
              );
          }
          const best = r.bids.reduce<TypedBid | null>(
            (b, x) => (!b || x.bid.price > b.bid.price ? x : b),
            null,
          );
          return { p, best, price: best ? toMicros(best.bid.price.toFixed(6)) : 0n, errors: r.errors };
        }),
      );
      const bids = answers
        .filter((a) => a.best)
        .sort((a, b) => (b.price > a.price ? 1 : b.price < a.price ? -1 : 0));
      const top = bids[0];
      const own = offer.own?.ecpm ?? 0n;
      const wins = top !== undefined && top.price > own;
      let clearing = 0n;
      if (top && wins) {
        const second = bids[1] && bids[1].price > own ? bids[1].price : own;
        clearing = second + INCREMENT < top.price ? second + INCREMENT : top.price;
      }
      const priceText = String(fromMicros(clearing));
      const hour = hourOf(new Date());
      const { widget, visitor } = offer;
      for (const a of answers) {
        const won = wins && a === top;
        const revenue = won ? clearing / 1000n : 0n;
        buffer.push({
          hour,
          dspPartnerId: a.p.id,
          siteId: widget.siteId,
          widgetId: widget.id,
          campaignId: offer.own?.campaignId ?? 0,
          rtbPartnerId: 0,
          country: visitor.country ?? '',
          city: visitor.city ?? '',
          device: visitor.device ?? '',
          os: visitor.os ?? '',
          requests: 1,
          bids: a.best ? 1 : 0,
          wins: won ? 1 : 0,
          timeouts: a.errors.some((e) => e.kind === 'timeout') ? 1 : 0,
          errors: a.errors.some((e) => e.kind !== 'timeout') ? 1 : 0,
          revenue,
        });
        if (!a.best) continue;
        const macros = {
          auctionId,
          bidId: a.best.bid.id,
          impId: a.best.bid.impid,
          seat: a.best.seat,
          adId: a.best.bid.adid ?? '',
          price: priceText,
          currency,
        };
        if (won) {
          // the partner owes the clearing price per impression: split and booked by the flush, once
          // the site's affiliate first, then the publisher's referrer (as a click's split)
          const referrers = [widget.affiliate, offer.referrer].filter((r) => r !== null && r !== undefined);
          const split = dspSplit(revenue, widget, referrers);
          if (revenue > 0n)
            winBuffer.push({
              winId: auctionId,
              dspPartnerId: a.p.id,
              siteId: widget.siteId,
              widgetId: widget.id,
              revenue,
              publisherEarned: split.publisher,
              agencyEarned: split.agency,
              referralEarned: split.referral,
              platformEarned: split.platform,
              credits: split.credits,
              rollup: {
                hour,
                campaignId: 0,
                bannerId: 0,
                siteId: widget.siteId,
                widgetId: widget.id,
                country: visitor.country ?? '',
                city: visitor.city ?? '',
                device: visitor.device ?? '',
                os: visitor.os ?? '',
                browser: visitor.browser ?? '',
                spent: revenue,
                earned: split.publisher,
              },
            });
          if (a.p.dailyMoneyLimit !== null)
            await deps.store.add(moneyKey(a.p.id), Number(revenue), TWO_DAYS_MS);
          fire(a.best.bid.nurl && fillAuctionMacros(a.best.bid.nurl, macros), 'nurl', a.p.id);
        } else {
          const loss = a.price <= own ? LOSS_BELOW_FLOOR : LOSS_HIGHER_BID;
          fire(a.best.bid.lurl && fillAuctionMacros(a.best.bid.lurl, { ...macros, loss }), 'lurl', a.p.id);
        }
      }
      if (!top || !wins) return null;
      const n = top.best!.native;
      return {
        partnerId: top.p.id,
        price: clearing,
        winId: auctionId,
        item: {
          id: `d${top.p.id}-${auctionId}`,
          title: n.title,
          text: n.text,
          image: n.image,
          url: n.url,
          brand: n.brand || top.p.name,
          sponsored: true,
          // the partner's own counting: the embed script calls them with the impression and on the click
          ...(n.imptrackers.length ? { imptrackers: n.imptrackers.slice(0, 5) } : {}),
          ...(n.clicktrackers.length ? { clicktrackers: n.clicktrackers.slice(0, 5) } : {}),
        },
      };
    },

    flush,
    /** The DSP statistics waiting for the next flush (the admin's system page). */
    buffered: () => ({ queued: buffer.length + winBuffer.length, lastFlushAt, lastError: lastFlushError }),
    async close() {
      clearInterval(timer);
      await flush();
    },
  };
}
export type Exchange = ReturnType<typeof createExchange>;
