import {
  addDays,
  type CampaignInput,
  type CampaignOpenRtb,
  type CampaignPaymentsKind,
  campaignOpenRtb,
  feedAdsTypes,
  TARGET_CTR_MIN_IMPRESSIONS,
  toMicros,
  utcDay,
} from '@adp/contract';
import type { DbOrTx } from '../../db/tx.ts';
import { parseFeedConfig } from '../../delivery/feeds/config.ts';
import { AppError, FieldsError, orNotFound } from '../../lib/errors.ts';
import { parseIpCsv } from '../../lib/ip-csv.ts';
import { afterChange, changesAny, initialModeration, type ModerationColumns } from '../../lib/moderation.ts';
import { uniqueAs422, uniqueViolation } from '../../lib/unique.ts';
import { unknownIdErrors } from '../../lib/unknown-ids.ts';
import type { Ledger } from '../ledger/ledger.service.ts';
import type { SitesRepository } from '../sites/sites.repository.ts';
import type { StatsService } from '../stats/stats.service.ts';
import type { WidgetsRepository } from '../widgets/widgets.repository.ts';
import {
  type CampaignRow,
  type CampaignsRepository,
  campaignColumns,
  campaignPaymentOf,
} from './campaigns.repository.ts';

const MAX_IP_RANGES = 10_000;

/**
 * What an admin approved: changing these sends the campaign back to moderation (the brand is shown with
 * every creative of the campaign).
 */
const material = ['adstype', 'src_code', 'track_urls', 'utm', 'cpc_feed_processor', 'brand_name'] as const;

/** UTC days the target CTR check measures: today and the 6 days before, as the statistics pages show. */
const CTR_CHECK_DAYS = 7;

export function createCampaignsService(deps: {
  repo: CampaignsRepository;
  ledger: Ledger;
  sites: Pick<SitesRepository, 'liveIds'>;
  widgets: Pick<WidgetsRepository, 'liveIds'>;
  /** The RTB partners a campaign's OpenRTB lists may name. */
  rtbPartners: { existingIds(ids: number[]): Promise<Set<number>> };
  /** The statistics (rollups) the target CTR check measures. */
  stats: Pick<StatsService, 'byDay'>;
}) {
  const { repo, ledger, stats } = deps;

  /**
   * A `cpcfeed` (or `external`) campaign buys clicks from an external CPC feed: it names the feed (`cpc_feed_processor`)
   * and `src_code` holds that feed's settings as JSON, read by the same parser delivery uses. Checked when
   * the request touches one of the three fields, against the values the campaign ends up with.
   */
  function assertFeedConfig(
    input: Partial<Pick<CampaignInput, 'adstype' | 'cpc_feed_processor' | 'src_code'>>,
    before?: CampaignRow,
  ) {
    if (input.adstype === undefined && input.cpc_feed_processor === undefined && input.src_code === undefined)
      return;
    const adstype = input.adstype ?? before?.adstype ?? 'default';
    if (!feedAdsTypes.has(adstype)) return;
    const processor =
      input.cpc_feed_processor !== undefined
        ? input.cpc_feed_processor
        : ((before?.cpcFeedProcessor ?? null) as CampaignInput['cpc_feed_processor']);
    if (processor === null)
      throw new FieldsError([{ field: 'cpc_feed_processor', code: 'feed_processor_required' }]);
    const parsed = parseFeedConfig(processor, input.src_code ?? before?.srcCode ?? '');
    if (!parsed.ok)
      throw new FieldsError([
        { field: 'src_code', code: 'feed_config_invalid', params: { processor, error: parsed.error } },
      ]);
  }

  /**
   * `site_id` and `widgets` name publishers' inventory the campaign runs on. As on MGID, an advertiser
   * may target any publisher's site or widget that is live (exists, active, approved by a moderator),
   * whoever owns it; an id that does not exist, or names something switched off, pending or rejected, is
   * a 422 on its field. Ids the campaign already holds are accepted when sent back, so a site going
   * offline later does not block every other edit of the campaign.
   */
  async function assertUsableInventory(
    input: { site_id?: string | null | undefined; widgets?: string[] | undefined },
    before?: CampaignRow,
  ) {
    const errors: { field: string; code: string; params: { ids: string } }[] = [];
    const siteId = input.site_id;
    if (siteId && (before?.siteId === null || String(before?.siteId) !== siteId)) {
      if (!(await deps.sites.liveIds([Number(siteId)])).has(Number(siteId)))
        errors.push({ field: 'site_id', code: 'site_unavailable', params: { ids: siteId } });
    }
    const held = new Set(before?.widgetIds ?? []);
    const fresh = [...new Set(input.widgets ?? [])].filter((w) => !held.has(w));
    if (fresh.length) {
      const live = await deps.widgets.liveIds(fresh.map(Number));
      const refused = fresh.filter((w) => !live.has(Number(w)));
      if (refused.length)
        errors.push({ field: 'widgets', code: 'widget_unavailable', params: { ids: refused.join(', ') } });
    }
    if (errors.length) throw new FieldsError(errors);
  }

  /**
   * The OpenRTB block's partner lists name RTB partners that exist (an unknown id is a 422 on its list);
   * ids the campaign already held are kept as they are (a partner deleted since does not block an edit).
   */
  async function assertRtbPartners(openrtb: CampaignOpenRtb | undefined, before?: CampaignRow) {
    if (!openrtb) return;
    const stored = before ? campaignOpenRtb.safeParse(before.openrtb) : undefined;
    const held = new Set(stored?.success ? [...stored.data.dsp_whitelist, ...stored.data.dsp_blacklist] : []);
    const errors = await unknownIdErrors(
      (['dsp_whitelist', 'dsp_blacklist'] as const).map((list) => ({
        field: `openrtb.${list}`,
        ids: openrtb[list].filter((id) => !held.has(id)),
      })),
      deps.rtbPartners.existingIds,
    );
    if (errors.length) throw new FieldsError(errors);
  }

  async function assertTitleFree(title: string, exceptId?: number) {
    if (await repo.titleTaken(title, exceptId))
      throw new FieldsError([{ field: 'title', code: 'title_taken' }]);
  }

  /** SPEC.md section 4: no activation without enough balance, nor with an unchecked target CTR. */
  function assertCanActivate(row: CampaignRow, clickprice: bigint) {
    if (row.balance < clickprice || row.balance === 0n)
      throw new AppError(422, 'not_enough_balance', {}, 'status');
    const rtb = campaignOpenRtb.parse(row.openrtb);
    if (rtb.enabled && rtb.target_ctr !== null && !rtb.target_ctr_auto && row.targetCtrStatus !== 'checked') {
      // a check that ran and failed says so; one that never ran asks for it
      const code = row.targetCtrStatus === 'not_passed' ? 'target_ctr_not_passed' : 'target_ctr_not_checked';
      throw new AppError(422, code, {}, 'status');
    }
  }

  /** Moves money between the campaign and its owner; both sides are ledger rows of one transaction. */
  async function move(
    tx: DbOrTx,
    row: CampaignRow,
    sum: bigint,
    actorId: number | null,
    type: 'campaign_funding' | 'refund',
  ) {
    const balance = await repo.addToBalance(tx, row.id, sum);
    if (balance === undefined) throw new AppError(422, 'insufficient_balance', {}, 'sum');
    const entry = await repo.insertLedgerEntry(tx, {
      campaignId: row.id,
      type,
      sum,
      balanceAfter: balance,
      actorId,
      ref: `user:${row.userId}`,
    });
    await ledger.move(tx, {
      userId: row.userId,
      type,
      sum: -sum,
      source: row.title,
      actorId,
      ref: `campaign:${row.id}`,
    });
    return entry;
  }

  const service = {
    async create(ownerId: number, input: Omit<CampaignInput, 'user_id'>, approved: boolean) {
      assertFeedConfig(input);
      await assertTitleFree(input.title);
      await assertUsableInventory(input);
      await assertRtbPartners(input.openrtb);
      // a new campaign has no balance, so it starts switched off
      if (input.status === 'active') throw new AppError(422, 'not_enough_balance', {}, 'status');
      // two requests racing past the check above: the unique index decides
      const row = await uniqueAs422('title', 'title_taken', () =>
        repo.insert({
          userId: ownerId,
          ...campaignColumns(input),
          title: input.title,
          status: 'inactive',
          moderation: initialModeration(approved),
        }),
      );
      return orNotFound(await repo.find(row.id));
    },

    async update(row: CampaignRow, input: Partial<Omit<CampaignInput, 'user_id'>>, byAdmin: boolean) {
      if (input.title !== undefined && input.title.toLowerCase() !== row.title.toLowerCase())
        await assertTitleFree(input.title, row.id);
      assertFeedConfig(input, row);
      await assertUsableInventory(input, row);
      await assertRtbPartners(input.openrtb, row);
      const columns = campaignColumns(input);
      const next = { ...row, ...columns } as CampaignRow;
      const activating = input.status === 'active' && row.status !== 'active';
      if (activating) assertCanActivate(next, next.clickprice);
      const before = Object.fromEntries(material.map((k) => [k, toInputValue(row, k)]));
      const changed = changesAny(before, input, material);
      const rtbChanged =
        input.openrtb !== undefined &&
        campaignOpenRtb.parse(row.openrtb).target_ctr !== input.openrtb.target_ctr;
      const values = {
        ...columns,
        ...(input.status !== undefined ? { status: input.status } : {}),
        ...afterChange(changed, byAdmin),
        ...(rtbChanged ? { targetCtrStatus: 'unchecked', targetCtrCheckDate: null } : {}),
        updatedAt: new Date(),
      };
      if (activating) {
        // checked again on the locked row: a drain running at the same time (pay, below, locks it too)
        // either happened before, and is seen here, or waits and then finds the campaign on
        await repo.transaction(async (tx) => {
          const fresh = await repo.lock(tx, row.id);
          if (!fresh) throw new AppError(404, 'not_found');
          const now = { ...fresh, ...columns } as CampaignRow;
          assertCanActivate(now, now.clickprice);
          await repo.update(row.id, values, tx);
        });
      } else await repo.update(row.id, values);
      return orNotFound(await repo.find(row.id));
    },

    /** Funds (positive) or drains (negative) the campaign; only while it is switched off. */
    async pay(row: CampaignRow, sum: number, actorId: number) {
      if (row.status !== 'inactive') throw new AppError(422, 'campaign_must_be_off', {}, 'sum');
      return repo.transaction(async (tx) => {
        // the status as it is now, on the locked row: an activation at the same moment waits for this
        const fresh = await repo.lock(tx, row.id);
        if (!fresh) throw new AppError(404, 'not_found');
        if (fresh.status !== 'inactive') throw new AppError(422, 'campaign_must_be_off', {}, 'sum');
        return campaignPaymentOf(await move(tx, fresh, toMicros(sum), actorId, 'campaign_funding'));
      });
    },

    async payments(campaignId: number, page: number, limit: number, kind?: CampaignPaymentsKind) {
      return repo.payments(campaignId, page, limit, kind);
    },

    /** Deleting returns what is left on the campaign to its owner, through the ledger. */
    async remove(row: CampaignRow, actorId: number) {
      await repo.transaction(async (tx) => {
        const fresh = await repo.lock(tx, row.id);
        if (fresh && fresh.balance > 0n) await move(tx, fresh, -fresh.balance, actorId, 'refund');
        await repo.remove(tx, row.id);
      });
    },

    /**
     * A switched-off copy with its creatives, no balance, waiting for moderation, titled "<title> (copy)",
     * "(copy 2)", … (the title cut to leave the suffix room); copies made at the same moment take the next
     * free title rather than fail on the unique title.
     */
    async copy(row: CampaignRow, byAdmin: boolean) {
      const titleOf = (n: number) => {
        const suffix = n === 1 ? ' (copy)' : ` (copy ${n})`;
        return (
          Array.from(row.title)
            .slice(0, 255 - suffix.length)
            .join('') + suffix
        );
      };
      let n = 1;
      for (let attempt = 1; ; attempt++, n++) {
        while (await repo.titleTaken(titleOf(n))) n++;
        try {
          const id = await repo.transaction(async (tx) => {
            const { id: _id, balance: _b, createdAt: _c, updatedAt: _u, ...rest } = row;
            const copy = await repo.insert(
              {
                ...rest,
                title: titleOf(n),
                status: 'inactive',
                moderation: byAdmin ? row.moderation : 'pending',
                moderationReason: null,
              },
              tx,
            );
            const creatives = await repo.bannerRows(tx, row.id);
            for (const b of creatives) {
              const { id: _bid, createdAt: _bc, updatedAt: _bu, ...bannerRest } = b;
              await repo.insertBanner(tx, {
                ...bannerRest,
                campaignId: copy.id,
                moderation: byAdmin ? b.moderation : 'pending',
              });
            }
            return copy.id;
          });
          return orNotFound(await repo.find(id));
        } catch (err) {
          // another request took the title between the check and the insert
          if (!uniqueViolation(err)) throw err;
          if (attempt >= 10) throw new FieldsError([{ field: 'title', code: 'title_taken' }]);
        }
      }
    },

    /** CSV of IPs and CIDR ranges (first column); bad rows reported by line number, good rows kept. */
    /** Empties the IP list: the campaign serves visitors from anywhere its other targeting allows. */
    async clearIps(row: CampaignRow) {
      await repo.update(row.id, { ipRanges: [] });
    },

    async importIps(row: CampaignRow, csv: string) {
      const { ranges, errors } = parseIpCsv(csv);
      const all = [...new Set([...row.ipRanges, ...ranges])].slice(0, MAX_IP_RANGES);
      await repo.update(row.id, { ipRanges: all });
      return { imported: all.length - row.ipRanges.length, total: all.length, errors };
    },

    /**
     * The target CTR check: clicks per impression of the campaign over the last 7 UTC days (today
     * included), from the statistics rollups, against the target. With fewer than
     * TARGET_CTR_MIN_IMPRESSIONS impressions nothing is decided: the campaign stays `unchecked`.
     */
    async checkTargetCtr(row: CampaignRow) {
      const rtb = campaignOpenRtb.parse(row.openrtb);
      if (rtb.target_ctr === null) throw new AppError(422, 'target_ctr_not_set', {}, 'target_ctr');
      const today = utcDay();
      const { total } = await stats.byDay('campaign', row.id, {
        from: addDays(today, -(CTR_CHECK_DAYS - 1)),
        to: today,
      });
      const { impressions, clicks } = total;
      const measured = impressions > 0 ? (clicks / impressions) * 100 : 0;
      const enough = impressions >= TARGET_CTR_MIN_IMPRESSIONS;
      const passed = enough && measured >= rtb.target_ctr;
      const status = !enough ? 'unchecked' : passed ? 'checked' : 'not_passed';
      await repo.update(row.id, { targetCtrStatus: status, targetCtrCheckDate: new Date() });
      return {
        campaign: (await repo.find(row.id))!,
        impressions,
        clicks,
        ctr: Math.round(measured * 1000) / 1000,
        passed,
        status,
        min_impressions: TARGET_CTR_MIN_IMPRESSIONS,
      } as const;
    },

    /**
     * The hourly job of the campaigns on auto: each one's target CTR checked as above, so a campaign that
     * falls below its target stops bidding (the bidder refuses `not_passed` on auto) and one that
     * recovers bids again, without its owner running the check.
     */
    async checkAutoTargetCtrs() {
      const counts = { checked: 0, not_passed: 0, unchecked: 0 };
      for (const row of await repo.autoTargetCtrRows())
        counts[(await service.checkTargetCtr(row)).status] += 1;
      return counts;
    },

    async moderate(id: number, columns: ModerationColumns) {
      await repo.decide(id, columns);
      const row = await repo.find(id);
      // deleted between its load and the decision
      if (!row) throw new AppError(404, 'not_found');
      return row;
    },
  };
  return service;
}
/** The hourly target CTR check of the campaigns on auto (its name on the System page). */
export const TARGET_CTR_JOB = 'target-ctr-auto';
export type CampaignsService = ReturnType<typeof createCampaignsService>;

function toInputValue(row: CampaignRow, key: (typeof material)[number]): unknown {
  switch (key) {
    case 'adstype':
      return row.adstype;
    case 'src_code':
      return row.srcCode;
    case 'track_urls':
      return row.trackUrls;
    case 'utm':
      return row.utm;
    case 'cpc_feed_processor':
      return row.cpcFeedProcessor;
    case 'brand_name':
      return row.brandName ?? '';
  }
}
