import { fromMicros } from '@adp/contract';
import { and, eq, gte, lte, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  campaignLedger,
  campaigns,
  notifications,
  platformLedger,
  prebidPartners,
  prebidStats,
  rtbNotices,
  rtbSources,
  rtbStats,
} from '../../db/schema/index.ts';
import type { DbOrTx } from '../../db/tx.ts';
import { upsertRollups } from '../../delivery/delivery.repository.ts';
import type { BidClaim } from './rtb-tokens.ts';

export type NoticeOutcome =
  | { status: 'recorded'; charged: bigint; userId: number }
  | { status: 'replayed' }
  | { status: 'unknown_campaign' };

const hourOf = (d: Date) => new Date(Math.floor(d.getTime() / 3_600_000) * 3_600_000);

async function sourceId(tx: DbOrTx, partnerId: number, name: string): Promise<number> {
  const [row] = await tx
    .insert(rtbSources)
    .values({ partnerId, name })
    .onConflictDoUpdate({ target: [rtbSources.partnerId, rtbSources.name], set: { name } })
    .returning({ id: rtbSources.id });
  return (row as { id: number }).id;
}

export type PrebidStatsRow = typeof prebidStats.$inferInsert;

/** Adds rows to `prebid_stats` (one statement; the counters of an existing key grow). */
async function addPrebidStats(tx: DbOrTx, rows: PrebidStatsRow[]) {
  if (rows.length === 0) return;
  await tx
    .insert(prebidStats)
    .values(rows)
    .onConflictDoUpdate({
      target: [
        prebidStats.hour,
        prebidStats.prebidPartnerId,
        prebidStats.campaignId,
        prebidStats.bannerId,
        prebidStats.country,
        prebidStats.device,
      ],
      set: {
        requests: sql`${prebidStats.requests} + excluded.requests`,
        bids: sql`${prebidStats.bids} + excluded.bids`,
        wins: sql`${prebidStats.wins} + excluded.wins`,
        impressions: sql`${prebidStats.impressions} + excluded.impressions`,
        spent: sql`${prebidStats.spent} + excluded.spent`,
      },
    });
}

/**
 * The exchange's writes: a win or billing notice of one bid, once (the unique (bid, kind) key refuses a
 * replay, also two at once), with its notification, its statistics row and, for a billing notice, the
 * campaign's charge and the platform's income in the same transaction.
 */
export function createRtbRepository(db: Db) {
  return {
    async recordNotice(kind: 'nurl' | 'burl', claim: BidClaim, price: bigint): Promise<NoticeOutcome> {
      return db.transaction(async (tx) => {
        const [campaign] = await tx
          .select({ id: campaigns.id, userId: campaigns.userId, balance: campaigns.balance })
          .from(campaigns)
          .where(eq(campaigns.id, claim.campaignId))
          .for('update');
        if (!campaign) return { status: 'unknown_campaign' };
        const prebid = claim.channel === 'prebid';
        const charge = kind === 'burl' && campaign.balance >= price ? price : 0n;
        const inserted = await tx
          .insert(rtbNotices)
          .values({
            bidId: claim.bidId,
            kind,
            partnerId: prebid ? null : claim.partnerId,
            prebidPartnerId: prebid ? claim.partnerId : null,
            campaignId: claim.campaignId,
            bannerId: claim.bannerId,
            source: claim.source,
            price,
            charged: charge,
          })
          .onConflictDoNothing({ target: [rtbNotices.bidId, rtbNotices.kind] })
          .returning({ id: rtbNotices.id });
        if (inserted.length === 0) return { status: 'replayed' };
        if (charge > 0n) {
          const [after] = await tx
            .update(campaigns)
            .set({ balance: sql`${campaigns.balance} - ${charge}` })
            .where(eq(campaigns.id, campaign.id))
            .returning({ balance: campaigns.balance });
          const ref = `rtb:${claim.bidId}`;
          await tx.insert(campaignLedger).values({
            campaignId: campaign.id,
            type: 'rtb_impression',
            sum: -charge,
            balanceAfter: (after as { balance: bigint }).balance,
            ref,
          });
          await tx.insert(platformLedger).values({ type: 'rtb_income', sum: charge, ref });
        }
        // a billed impression is in the campaign's ordinary statistics too: site and widget 0, the exchange
        // (the statistics answer 'rtb' for them), what it was charged as spent
        if (kind === 'burl')
          await upsertRollups(tx, [
            {
              hour: hourOf(new Date()),
              campaignId: claim.campaignId,
              bannerId: claim.bannerId,
              siteId: 0,
              widgetId: 0,
              country: claim.country ?? '',
              city: '',
              device: claim.device ?? '',
              os: '',
              browser: '',
              impressions: 1,
              spent: charge,
            },
          ]);
        await tx.insert(notifications).values({
          type: kind,
          userId: campaign.userId,
          campaignId: campaign.id,
          price,
          payload: {
            bid_id: claim.bidId,
            ...(prebid
              ? { prebid_partner_id: String(claim.partnerId) }
              : { partner_id: String(claim.partnerId) }),
            banner_id: String(claim.bannerId),
            source: claim.source,
            charged: kind === 'burl' ? fromMicros(charge) : 0,
            ...(kind === 'burl' && charge === 0n ? { reason: 'no_balance' } : {}),
          },
        });
        if (prebid) {
          await addPrebidStats(tx, [
            {
              hour: hourOf(new Date()),
              prebidPartnerId: claim.partnerId,
              campaignId: claim.campaignId,
              bannerId: claim.bannerId,
              // as the bidder read the request (device.geo, else GeoIP of the IP; device type of the UA)
              country: claim.country ?? '',
              device: claim.device ?? '',
              wins: kind === 'nurl' ? 1 : 0,
              impressions: kind === 'burl' ? 1 : 0,
              spent: charge,
            },
          ]);
          return { status: 'recorded', charged: charge, userId: campaign.userId };
        }
        const source = await sourceId(tx, claim.partnerId, claim.source);
        await tx
          .insert(rtbStats)
          .values({
            hour: hourOf(new Date()),
            partnerId: claim.partnerId,
            sourceId: source,
            campaignId: claim.campaignId,
            bannerId: claim.bannerId,
            wins: kind === 'nurl' ? 1 : 0,
            impressions: kind === 'burl' ? 1 : 0,
            spent: charge,
          })
          .onConflictDoUpdate({
            target: [
              rtbStats.hour,
              rtbStats.partnerId,
              rtbStats.sourceId,
              rtbStats.campaignId,
              rtbStats.bannerId,
            ],
            set: {
              wins: sql`${rtbStats.wins} + excluded.wins`,
              impressions: sql`${rtbStats.impressions} + excluded.impressions`,
              spent: sql`${rtbStats.spent} + excluded.spent`,
            },
          });
        return { status: 'recorded', charged: charge, userId: campaign.userId };
      });
    },

    /** The Prebid partners (the bidder keeps them in memory by key). */
    prebidPartners: () =>
      db
        .select({ id: prebidPartners.id, key: prebidPartners.key, status: prebidPartners.status })
        .from(prebidPartners),

    /** Adds the Prebid bidder endpoint's buffered requests and bids to its hourly rows. */
    addPrebidStats: (rows: PrebidStatsRow[]) => addPrebidStats(db, rows),

    /** Today's (UTC) charges per campaign and per partner, to seed the shared counters at start. */
    async chargedSince(since: Date) {
      const rows = await db
        .select({
          campaignId: rtbNotices.campaignId,
          partnerId: rtbNotices.partnerId,
          prebidPartnerId: rtbNotices.prebidPartnerId,
          spent: sql<string>`sum(${rtbNotices.charged})::text`,
        })
        .from(rtbNotices)
        .where(and(eq(rtbNotices.kind, 'burl'), gte(rtbNotices.createdAt, since)))
        .groupBy(rtbNotices.campaignId, rtbNotices.partnerId, rtbNotices.prebidPartnerId);
      return rows.map((r) => ({ ...r, spent: Number(r.spent) }));
    },

    /**
     * Sums of `rtb_stats` for a campaign or a creative over the hours [from, to], per hour (key: epoch
     * milliseconds) or per source (key: its id, with its name), optionally of one partner / source.
     */
    async sums(q: {
      campaignId?: number;
      bannerId?: number;
      partnerId?: number;
      sourceId?: number;
      from: Date;
      to: Date;
      by: 'hour' | 'source';
    }) {
      const filters: SQL[] = [gte(rtbStats.hour, q.from), lte(rtbStats.hour, q.to)];
      if (q.campaignId !== undefined) filters.push(eq(rtbStats.campaignId, q.campaignId));
      if (q.bannerId !== undefined) filters.push(eq(rtbStats.bannerId, q.bannerId));
      if (q.partnerId !== undefined) filters.push(eq(rtbStats.partnerId, q.partnerId));
      if (q.sourceId !== undefined) filters.push(eq(rtbStats.sourceId, q.sourceId));
      const group = q.by === 'hour' ? rtbStats.hour : rtbStats.sourceId;
      // an hour as epoch milliseconds (both drivers answer the same text)
      const key =
        q.by === 'hour'
          ? sql<string>`(extract(epoch from ${rtbStats.hour}) * 1000)::bigint::text`
          : sql<string>`${rtbStats.sourceId}::text`;
      const rows = await db
        .select({
          key,
          name: sql<string>`max(${rtbSources.name})`,
          wins: sql<number>`sum(${rtbStats.wins})::float8`,
          impressions: sql<number>`sum(${rtbStats.impressions})::float8`,
          spent: sql<string>`sum(${rtbStats.spent})::text`,
        })
        .from(rtbStats)
        .leftJoin(rtbSources, eq(rtbSources.id, rtbStats.sourceId))
        .where(and(...filters))
        .groupBy(group);
      const sums = rows.map((r) => ({ ...r, spent: BigInt(r.spent ?? '0') }));
      // the campaign's (or creative's) whole exchange spend by hour counts what Prebid Servers billed too
      // (kept per Prebid partner, without RTB partners' sources: not in the source and partner views)
      if (q.by !== 'hour' || q.partnerId !== undefined || q.sourceId !== undefined) return sums;
      const prebidFilters: SQL[] = [
        gte(prebidStats.hour, q.from),
        lte(prebidStats.hour, q.to),
        sql`${prebidStats.impressions} + ${prebidStats.wins} > 0`,
      ];
      if (q.campaignId !== undefined) prebidFilters.push(eq(prebidStats.campaignId, q.campaignId));
      if (q.bannerId !== undefined) prebidFilters.push(eq(prebidStats.bannerId, q.bannerId));
      const prebid = await db
        .select({
          key: sql<string>`(extract(epoch from ${prebidStats.hour}) * 1000)::bigint::text`,
          wins: sql<number>`sum(${prebidStats.wins})::float8`,
          impressions: sql<number>`sum(${prebidStats.impressions})::float8`,
          spent: sql<string>`sum(${prebidStats.spent})::text`,
        })
        .from(prebidStats)
        .where(and(...prebidFilters))
        .groupBy(prebidStats.hour);
      const byKey = new Map(sums.map((r) => [r.key, r]));
      for (const r of prebid) {
        const spent = BigInt(r.spent ?? '0');
        const same = byKey.get(r.key);
        if (same) {
          same.wins += r.wins;
          same.impressions += r.impressions;
          same.spent += spent;
        } else sums.push({ key: r.key, name: '', wins: r.wins, impressions: r.impressions, spent });
      }
      return sums;
    },
  };
}
export type RtbRepository = ReturnType<typeof createRtbRepository>;
