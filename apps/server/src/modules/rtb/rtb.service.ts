import type { AdIndexHolder } from '../../delivery/ad-index.ts';
import type { CampaignCounters } from '../../delivery/counters.ts';
import { dayOf } from '../../delivery/counters.ts';
import { landingUrl } from '../../delivery/engine.ts';
import type { VisitorReader } from '../../delivery/visitor/visitor.ts';
import type { SharedStore } from '../../lib/shared-store.ts';
import type { RatesCache } from '../currencies/rates.ts';
import { type BidRequest, bidRequest, reasonOf } from './openrtb.ts';
import type { RtbRepository } from './rtb.repository.ts';
import { type BidOutcome, createBidder } from './rtb-bidder.ts';
import type { RtbPartnersService } from './rtb-partners.service.ts';
import type { BidSigner } from './rtb-tokens.ts';

const TWO_DAYS_MS = 2 * 86_400_000;
/** The OpenRTB versions we speak (the `x-openrtb-version` header; absent means 2.5). */
const versions = /^2\.[0-6](\.\d+)?$/;
/** What answering takes after the decision (serialising, the network): kept out of the partner's tmax. */
const SAFETY_MS = 2;

export type BidAnswer = BidOutcome | { status: 400; reason: string };
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

  return {
    refresh,
    stop: () => clearInterval(timer),
    /** After a restart of an in-process store: today's charges from the database. */
    async seed() {
      const day = dayOf(Date.now());
      const rows = await deps.repo.chargedSince(new Date(`${day}T00:00:00Z`));
      const byPartner = new Map<number, number>();
      const byCampaign = new Map<number, number>();
      for (const r of rows) {
        byCampaign.set(r.campaignId, (byCampaign.get(r.campaignId) ?? 0) + r.spent);
        byPartner.set(r.partnerId, (byPartner.get(r.partnerId) ?? 0) + r.spent);
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
      const partner = deps.partners.byKey(key);
      if (!partner) return { status: 400, reason: 'unknown partner key' };
      const v = version?.trim() || '2.5';
      if (!versions.test(v)) return { status: 400, reason: `unsupported OpenRTB version ${v.slice(0, 16)}` };
      const parsed = bidRequest.safeParse(body);
      if (!parsed.success) return { status: 400, reason: reasonOf(parsed.error) };
      if (partner.status !== 'active') return { status: 204, reason: 'partner_inactive' };
      const request: BidRequest = parsed.data;
      const budget = Math.min(request.tmax || partner.maxRequestMs, partner.maxRequestMs) - SAFETY_MS;
      if (clock() - startedAt >= budget) return { status: 204, reason: 'timeout' };
      const outcome = bidder(request, partner, v);
      if (clock() - startedAt >= budget) return { status: 204, reason: 'timeout' };
      return outcome;
    },

    /**
     * A win (`nurl`) or billing (`burl`) notice: the clearing price (currency units of the bid's currency
     * per 1000 impressions, never above our bid) is converted back to ours; a burl charges 1/1000 of it.
     */
    async notice(kind: 'nurl' | 'burl', token: string, priceText: unknown): Promise<NoticeAnswer> {
      const claim = deps.signer.open(token);
      if (typeof claim === 'string') return { status: 'bad_token', reason: claim };
      const cpm =
        typeof priceText === 'string' && /^\d{1,12}(\.\d{1,10})?$/.test(priceText) ? Number(priceText) : NaN;
      if (!Number.isFinite(cpm)) return { status: 'bad_price', reason: 'price' };
      // micro-units of the platform currency per 1000, capped at our bid
      const clearing = Math.min(Math.round((cpm / claim.rate) * 1_000_000), claim.bid);
      const perImpression = BigInt(Math.floor(clearing / 1000));
      const out = await deps.repo.recordNotice(
        kind,
        claim,
        kind === 'burl' ? perImpression : BigInt(clearing),
      );
      if (out.status === 'replayed') return { status: 'replayed', reason: 'replayed' };
      if (out.status === 'unknown_campaign') return { status: 'unknown', reason: 'campaign' };
      if (out.charged > 0n) {
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
