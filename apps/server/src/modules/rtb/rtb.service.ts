import type { AdIndexHolder } from '../../delivery/ad-index.ts';
import type { CampaignCounters } from '../../delivery/counters.ts';
import { dayOf } from '../../delivery/counters.ts';
import { landingUrl } from '../../delivery/engine.ts';
import type { VisitorReader } from '../../delivery/visitor/visitor.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import type { RatesCache } from '../currencies/rates.ts';
import { type BidRequest, bidRequest, reasonOf } from './openrtb.ts';
import type { PrebidStatsRow, RtbRepository } from './rtb.repository.ts';
import { type BidChannel, type BidOutcome, type BidTrace, createBidder } from './rtb-bidder.ts';
import type { RtbPartnersService } from './rtb-partners.service.ts';
import type { BidSigner } from './rtb-tokens.ts';

/** A clearing price's and a rate's fixed point: units of 10^-10. */
const SCALE = 10_000_000_000n;

const TWO_DAYS_MS = 2 * 86_400_000;
/** The OpenRTB versions we speak (the `x-openrtb-version` header; absent means 2.5). */
const versions = /^2\.[0-6](\.\d+)?$/;
/** What answering takes after the decision (serialising, the network): kept out of the partner's tmax. */
const SAFETY_MS = 2;
/** A Prebid Server's request without `tmax` gets this long; a longer `tmax` is capped at the maximum. */
const PREBID_DEFAULT_MS = 500;
const PREBID_MAX_MS = 1000;
/** How often the Prebid endpoint's request and bid counts are written to `prebid_stats`. */
const PREBID_FLUSH_MS = 5000;

/** A bid endpoint's answer: 404 for an unknown key, 403 for an inactive partner, 400 for a malformed request. */
export type BidAnswer = BidOutcome | { status: 400 | 403 | 404; reason: string };
/** The Prebid endpoint answers as the RTB partners' one does. */
export type PrebidBidAnswer = BidAnswer;
interface PrebidPartnerRef {
  id: number;
  status: string;
}
/** The body the bid endpoints pass for one that is not JSON (the key is checked first: 404 before 400). */
export const NOT_JSON: unique symbol = Symbol('not JSON');
const hourOf = (ms: number) => new Date(Math.floor(ms / 3_600_000) * 3_600_000);
export type NoticeAnswer =
  | { status: 'counted'; charged: bigint }
  | { status: 'bad_token' | 'bad_price' | 'replayed' | 'unknown'; reason: string };

/**
 * The exchange's inbound side: the bid endpoint's work (partner, version, body, deadline, decision) and
 * the win / billing notices (price macro, charge once, counters). Spend per campaign and partner per UTC
 * day lives in the shared store (every instance adds to it) with a local copy for decisions.
 */
export function createRtbService(deps: {
  repo: RtbRepository;
  partners: RtbPartnersService;
  index: AdIndexHolder;
  counters: CampaignCounters;
  visitors: VisitorReader;
  rates: RatesCache;
  store: SharedStore;
  signer: BidSigner;
  publicUrl: string;
  /** Milliseconds, monotonic (tests move it). */
  clock?: () => number;
}) {
  const clock = deps.clock ?? (() => performance.now());
  const local = new Map<string, number>();
  const campaignKey = (id: number, day = dayOf(Date.now())) => `rtbc:${day}:${id}`;
  const partnerKey = (id: number, day = dayOf(Date.now())) => `rtbp:${day}:${id}`;
  const bidder = createBidder({
    index: deps.index.get,
    visitors: deps.visitors,
    rates: deps.rates,
    signer: deps.signer,
    publicUrl: deps.publicUrl,
    mayServe: (c) => deps.counters.mayServe(c),
    spentToday: {
      campaign: (id) => local.get(campaignKey(id)) ?? 0,
      partner: (id) => local.get(partnerKey(id)) ?? 0,
    },
  });

  /** The local copy of today's spend of the campaigns that bid and every partner. */
  async function refresh() {
    const keys = [
      ...[...deps.index.get().campaigns.values()].filter((c) => c.openrtb).map((c) => campaignKey(c.id)),
      ...deps.partners.ids().map((id) => partnerKey(id)),
    ];
    if (keys.length === 0) return;
    const values = await deps.store.values(keys);
    local.clear();
    keys.forEach((k, i) => {
      local.set(k, values[i] ?? 0);
    });
  }
  const timer = setInterval(() => {
    refresh().catch(() => {
      // the store is away: decide with the last values
    });
  }, 500);
  timer.unref();

  /** Prebid partners by key, in memory (reloaded after each change and index rebuild). */
  let prebidByKey = new Map<string, PrebidPartnerRef>();
  async function reloadPrebid() {
    prebidByKey = new Map((await deps.repo.prebidPartners()).map((p) => [p.key, p]));
  }
  /** The Prebid endpoint's requests and bids since the last flush, by their `prebid_stats` key. */
  let traffic = new Map<string, PrebidStatsRow>();
  function count(
    partnerId: number,
    campaignId: number,
    bannerId: number,
    trace: BidTrace | undefined,
    bid: boolean,
  ) {
    const hour = hourOf(Date.now());
    const country = trace?.country ?? '';
    const device = trace?.device ?? '';
    const k = `${hour.getTime()}|${partnerId}|${campaignId}|${bannerId}|${country}|${device}`;
    let row = traffic.get(k);
    if (!row) {
      row = { hour, prebidPartnerId: partnerId, campaignId, bannerId, country, device, requests: 0, bids: 0 };
      traffic.set(k, row);
    }
    if (bid) row.bids = (row.bids ?? 0) + 1;
    else row.requests = (row.requests ?? 0) + 1;
  }
  async function flushPrebid() {
    if (traffic.size === 0) return;
    const rows = [...traffic.values()];
    traffic = new Map();
    try {
      await deps.repo.addPrebidStats(rows);
    } catch (err) {
      // the database is away: keep the counts for the next flush
      for (const r of rows) {
        const k = `${(r.hour as Date).getTime()}|${r.prebidPartnerId}|${r.campaignId}|${r.bannerId}|${r.country}|${r.device}`;
        const now = traffic.get(k);
        if (now) {
          now.requests = (now.requests ?? 0) + (r.requests ?? 0);
          now.bids = (now.bids ?? 0) + (r.bids ?? 0);
        } else traffic.set(k, r);
      }
      throw err;
    }
  }
  const prebidTimer = setInterval(() => {
    flushPrebid().catch(() => {
      // retried at the next tick
    });
  }, PREBID_FLUSH_MS);
  prebidTimer.unref();

  /** A parsed request of a known, active partner: the deadline, then the bidder. */
  function decide(
    partner: { id: number; dailyLimit: bigint | null },
    channel: BidChannel,
    version: string,
    request: BidRequest,
    maxMs: number,
    startedAt: number,
  ): BidOutcome {
    const budget = Math.min(request.tmax || maxMs, maxMs) - SAFETY_MS;
    if (clock() - startedAt >= budget) return { status: 204, reason: 'timeout' };
    const outcome = bidder(request, partner, version, channel);
    if (clock() - startedAt >= budget) return { status: 204, reason: 'timeout', trace: outcome.trace };
    return outcome;
  }

  return {
    refresh,
    reloadPrebid,
    /** Writes the Prebid endpoint's buffered counts (a timer does it every few seconds, and the close). */
    flushPrebid,
    stop: () => {
      clearInterval(timer);
      clearInterval(prebidTimer);
    },
    /** After a restart of an in-process store: today's charges from the database. */
    async seed() {
      const day = dayOf(Date.now());
      const rows = await deps.repo.chargedSince(new Date(`${day}T00:00:00Z`));
      const byPartner = new Map<number, number>();
      const byCampaign = new Map<number, number>();
      for (const r of rows) {
        byCampaign.set(r.campaignId, (byCampaign.get(r.campaignId) ?? 0) + r.spent);
        if (r.partnerId !== null) byPartner.set(r.partnerId, (byPartner.get(r.partnerId) ?? 0) + r.spent);
      }
      for (const [id, v] of byCampaign) await deps.store.seed(campaignKey(id, day), v, TWO_DAYS_MS);
      for (const [id, v] of byPartner) await deps.store.seed(partnerKey(id, day), v, TWO_DAYS_MS);
      await refresh();
    },

    /**
     * One bid request. `startedAt` is the clock when it arrived: the answer must leave within the request's
     * `tmax` capped by the partner's max request time, else it is a no-bid.
     */
    bid(key: string, version: string | undefined, body: unknown, startedAt: number): BidAnswer {
      // the key first, as the Prebid endpoint: an unknown key 404, an inactive partner 403, then the body
      const partner = deps.partners.byKey(key);
      if (!partner) return { status: 404, reason: 'unknown partner key' };
      if (partner.status !== 'active') return { status: 403, reason: 'partner inactive' };
      if (body === NOT_JSON) return { status: 400, reason: 'body is not JSON' };
      const v = version?.trim() || '2.5';
      if (!versions.test(v)) return { status: 400, reason: `unsupported OpenRTB version ${v.slice(0, 16)}` };
      const parsed = bidRequest.safeParse(body);
      if (!parsed.success) return { status: 400, reason: reasonOf(parsed.error) };
      return decide(partner, 'rtb', v, parsed.data, partner.maxRequestMs, startedAt);
    },

    /**
     * One bid request of a Prebid Server (`POST /rtb/prebid/:key`): the same bidder as the RTB partners'
     * (Prebid partner targeting instead of the DSP lists, no daily limit), `tmax` capped at a second; every
     * request and bid is counted in the partner's statistics (buffered, written every few seconds).
     */
    prebidBid(key: string, version: string | undefined, body: unknown, startedAt: number): PrebidBidAnswer {
      const partner = prebidByKey.get(key);
      if (!partner) return { status: 404, reason: 'unknown partner key' };
      if (partner.status !== 'active') return { status: 403, reason: 'partner inactive' };
      const v = version?.trim() || '2.5';
      if (body === NOT_JSON) {
        count(partner.id, 0, 0, undefined, false);
        return { status: 400, reason: 'body is not JSON' };
      }
      if (!versions.test(v)) {
        count(partner.id, 0, 0, undefined, false);
        return { status: 400, reason: `unsupported OpenRTB version ${v.slice(0, 16)}` };
      }
      const parsed = bidRequest.safeParse(body);
      if (!parsed.success) {
        count(partner.id, 0, 0, undefined, false);
        return { status: 400, reason: reasonOf(parsed.error) };
      }
      const out = decide(
        { id: partner.id, dailyLimit: null },
        'prebid',
        v,
        parsed.data,
        parsed.data.tmax ? PREBID_MAX_MS : PREBID_DEFAULT_MS,
        startedAt,
      );
      count(partner.id, 0, 0, out.trace, false);
      if (out.status === 200)
        for (const p of out.trace?.placed ?? []) count(partner.id, p.campaignId, p.bannerId, out.trace, true);
      return out;
    },

    /**
     * A win (`nurl`) or billing (`burl`) notice: the clearing price (currency units of the bid's currency
     * per 1000 impressions, never above our bid) is converted back to ours; a burl charges 1/1000 of it.
     */
    async notice(kind: 'nurl' | 'burl', token: string, priceText: unknown): Promise<NoticeAnswer> {
      const claim = deps.signer.open(token);
      if (typeof claim === 'string') return { status: 'bad_token', reason: claim };
      if (typeof priceText !== 'string' || !/^\d{1,12}(\.\d{1,10})?$/.test(priceText))
        return { status: 'bad_price', reason: 'price' };
      // micro-units of the platform currency per 1000, capped at our bid, in integers: the decimal price
      // and the bid's rate both as units of 10^-10, the quotient rounded half up
      const [whole = '0', frac = ''] = priceText.split('.');
      const price = BigInt(whole) * SCALE + BigInt(frac.padEnd(10, '0'));
      const rate = BigInt(Math.round(claim.rate * 1e10));
      if (rate <= 0n) return { status: 'bad_price', reason: 'price' };
      const converted = (price * 1_000_000n + rate / 2n) / rate;
      const bid = BigInt(claim.bid);
      const clearing = converted < bid ? converted : bid;
      const perImpression = clearing / 1000n;
      const out = await deps.repo.recordNotice(kind, claim, kind === 'burl' ? perImpression : clearing);
      if (out.status === 'replayed') return { status: 'replayed', reason: 'replayed' };
      if (out.status === 'unknown_campaign') return { status: 'unknown', reason: 'campaign' };
      if (out.charged > 0n && claim.channel === 'prebid') {
        const by = Number(out.charged);
        await deps.store.add(campaignKey(claim.campaignId), by, TWO_DAYS_MS);
        local.set(campaignKey(claim.campaignId), (local.get(campaignKey(claim.campaignId)) ?? 0) + by);
      } else if (out.charged > 0n) {
        const by = Number(out.charged);
        await deps.store.add(campaignKey(claim.campaignId), by, TWO_DAYS_MS);
        await deps.store.add(partnerKey(claim.partnerId), by, TWO_DAYS_MS);
        local.set(campaignKey(claim.campaignId), (local.get(campaignKey(claim.campaignId)) ?? 0) + by);
        local.set(partnerKey(claim.partnerId), (local.get(partnerKey(claim.partnerId)) ?? 0) + by);
      }
      return { status: 'counted', charged: out.charged };
    },

    /** Where a click on a bid's ad goes: the creative's landing page, or null for a bad token. */
    clickTarget(token: string): string | null {
      const claim = deps.signer.open(token);
      if (typeof claim === 'string') return null;
      const c = deps.index.get().creative(claim.bannerId);
      if (!c || c.campaign.id !== claim.campaignId) return null;
      return landingUrl(c.url, c.campaign.utm, {
        campaign_id: String(c.campaign.id),
        banner_id: String(c.id),
        site_id: '',
        widget_id: '',
        click_id: claim.bidId,
        country: '',
        device: '',
        os: '',
        timestamp: String(Math.floor(Date.now() / 1000)),
      });
    },
  };
}
export type RtbService = ReturnType<typeof createRtbService>;
