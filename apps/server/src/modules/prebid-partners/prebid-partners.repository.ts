import { randomBytes } from 'node:crypto';
import {
  addDays,
  dayEnd,
  dayStart,
  type EntityLogsQuery,
  fromMicros,
  type PrebidPartner,
  type PrebidPartnersQuery,
  type PrebidStatsAnswer,
  type PrebidStatsQuery,
  type PrebidStatsRow,
  statsRange,
} from '@adp/contract';
import { and, count, desc, eq, gte, ilike, inArray, lt, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { campaigns, prebidPartners, prebidStats } from '../../db/schema/index.ts';
import { existingIds } from '../../lib/existing-ids.ts';
import { containsPattern, pageOf } from '../../lib/paging.ts';
import { listEntityLogs, recordEntityLog } from '../entity-logs/entity-logs.repository.ts';
import { maskKey } from '../rtb/rtb-partners.repository.ts';

export type PrebidPartnerRow = typeof prebidPartners.$inferSelect;

/** The entity type of Prebid partners in the audit log. */
export const PREBID_PARTNER_LOG = 'prebidpartner';

export type PrebidPartnerValues = Partial<{
  name: string;
  bidder_code: string;
  status: 'active' | 'inactive';
}>;
function columns(v: PrebidPartnerValues): Partial<typeof prebidPartners.$inferInsert> {
  const out: Partial<typeof prebidPartners.$inferInsert> = {};
  if (v.name !== undefined) out.name = v.name;
  if (v.bidder_code !== undefined) out.bidderCode = v.bidder_code;
  if (v.status !== undefined) out.status = v.status;
  return out;
}

/** A new bidder endpoint key: 24 url-safe random characters. */
export const newPrebidKey = () => randomBytes(18).toString('base64url');

/**
 * The answer's shape of a partner. `reveal` is false for a reader who may not change partners (a read-only
 * admin): the key is a credential (whoever holds it bids as the partner), so such a reader sees only its
 * first characters, in the key and in the endpoint, as for RTB partners.
 */
export function toPrebidPartner(row: PrebidPartnerRow, publicUrl: string, reveal = true): PrebidPartner {
  const key = reveal ? row.key : maskKey(row.key);
  return {
    _id: String(row.id),
    name: row.name,
    bidder_code: row.bidderCode,
    status: row.status as PrebidPartner['status'],
    key,
    endpoint: `${publicUrl}/rtb/prebid/${key}`,
    created_at: row.createdAt.toISOString(),
  };
}

const ecpmOf = (spent: bigint, impressions: number) =>
  impressions > 0 ? fromMicros((spent * 1000n) / BigInt(impressions)) : 0;

const groupKey = {
  campaign: sql`${prebidStats.campaignId}::text`,
  country: sql`${prebidStats.country}`,
  device: sql`${prebidStats.device}`,
};

export function createPrebidPartnersRepository(db: Db, publicUrl: string) {
  return {
    /** A page of partners; `reveal` as in toPrebidPartner. */
    list(q: PrebidPartnersQuery, reveal = true) {
      const conds: SQL[] = [];
      if (q.q) conds.push(ilike(prebidPartners.name, containsPattern(q.q)));
      if (q.status) conds.push(eq(prebidPartners.status, q.status));
      const where = and(...conds);
      return pageOf(
        q,
        db.select({ n: count() }).from(prebidPartners).where(where),
        (w) =>
          db
            .select()
            .from(prebidPartners)
            .where(where)
            .orderBy(desc(prebidPartners.id))
            .limit(w.limit)
            .offset(w.offset),
        (r) => toPrebidPartner(r, publicUrl, reveal),
      );
    },

    /** Creates a partner with a new key, and its audit log row, in one transaction. */
    create(
      actorId: number,
      values: PrebidPartnerValues & { name: string },
      view: (r: PrebidPartnerRow) => object,
    ) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(prebidPartners)
          .values({ ...columns(values), name: values.name, key: newPrebidKey() })
          .returning();
        if (!row) throw new Error('insert returned no row');
        await recordEntityLog(tx, {
          entityType: PREBID_PARTNER_LOG,
          entityId: row.id,
          userId: actorId,
          action: 'create',
          before: null,
          after: view(row) as Record<string, unknown>,
        });
        return row;
      });
    },

    /** Changes a partner and logs the changed fields, in one transaction; undefined when it is gone. */
    update(
      actorId: number,
      found: PrebidPartnerRow,
      values: PrebidPartnerValues,
      view: (r: PrebidPartnerRow) => object,
    ) {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .update(prebidPartners)
          .set({ ...columns(values), updatedAt: new Date() })
          .where(eq(prebidPartners.id, found.id))
          .returning();
        if (!row) return undefined;
        await recordEntityLog(tx, {
          entityType: PREBID_PARTNER_LOG,
          entityId: row.id,
          userId: actorId,
          action: 'update',
          before: view(found) as Record<string, unknown>,
          after: view(row) as Record<string, unknown>,
        });
        return row;
      });
    },

    /** Whether the partner has won or been billed for anything (its statistics are money records). */
    async billed(id: number): Promise<boolean> {
      const [row] = await db
        .select({ one: sql<number>`1` })
        .from(prebidStats)
        .where(
          and(
            eq(prebidStats.prebidPartnerId, id),
            sql`(${prebidStats.wins} > 0 or ${prebidStats.spent} > 0)`,
          ),
        )
        .limit(1);
      return row !== undefined;
    },

    /** Deletes a partner and logs it, in one transaction. */
    delete(actorId: number, found: PrebidPartnerRow, view: (r: PrebidPartnerRow) => object) {
      return db.transaction(async (tx) => {
        await tx.delete(prebidPartners).where(eq(prebidPartners.id, found.id));
        await recordEntityLog(tx, {
          entityType: PREBID_PARTNER_LOG,
          entityId: found.id,
          userId: actorId,
          action: 'delete',
          before: view(found) as Record<string, unknown>,
          after: null,
        });
      });
    },

    /** The audit log of one partner (GET /api/prebidpartners/:id/logs). */
    // the key is a credential: entries written before it was left out of the log may still hold it
    logs: (entityId: number, q: EntityLogsQuery) =>
      listEntityLogs(db, PREBID_PARTNER_LOG, entityId, q, ['key', 'endpoint']),

    /** Which of these ids are Prebid partners. */
    existingIds: (ids: number[]) => existingIds(db, prebidPartners, ids),

    async findById(id: number): Promise<PrebidPartnerRow | undefined> {
      const [row] = await db.select().from(prebidPartners).where(eq(prebidPartners.id, id));
      return row;
    },

    /** The active partner of a bidder endpoint key (the Prebid bidder endpoint). */
    async findActiveByKey(key: string): Promise<PrebidPartnerRow | undefined> {
      const [row] = await db
        .select()
        .from(prebidPartners)
        .where(and(eq(prebidPartners.key, key), eq(prebidPartners.status, 'active')));
      return row;
    },

    /** By date (zero-filled days of `tz`) or by campaign, country or device, with the total. */
    async stats(partnerId: number, q: PrebidStatsQuery): Promise<PrebidStatsAnswer> {
      const { from, to } = statsRange(q);
      const key =
        q.group === 'day'
          ? sql`to_char(${prebidStats.hour} at time zone ${q.tz}, 'YYYY-MM-DD')`
          : groupKey[q.group];
      const raw = await db
        .select({
          key: sql<string>`${key}`,
          requests: sql<number>`sum(${prebidStats.requests})::float8`,
          bids: sql<number>`sum(${prebidStats.bids})::float8`,
          wins: sql<number>`sum(${prebidStats.wins})::float8`,
          impressions: sql<number>`sum(${prebidStats.impressions})::float8`,
          spent: sql<string>`sum(${prebidStats.spent})::text`,
        })
        .from(prebidStats)
        .where(
          and(
            eq(prebidStats.prebidPartnerId, partnerId),
            gte(prebidStats.hour, dayStart(from, q.tz)),
            lt(prebidStats.hour, dayEnd(to, q.tz)),
          ),
        )
        .groupBy(sql`1`);
      const zero = { requests: 0, bids: 0, wins: 0, impressions: 0, spent: 0, ecpm: 0 };
      let rows: PrebidStatsRow[] = raw.map((r) => {
        const spent = BigInt(r.spent ?? '0');
        return {
          key: r.key === '' || r.key === '0' ? 'unknown' : r.key,
          requests: Number(r.requests),
          bids: Number(r.bids),
          wins: Number(r.wins),
          impressions: Number(r.impressions),
          spent: fromMicros(spent),
          ecpm: ecpmOf(spent, Number(r.impressions)),
        };
      });
      if (q.group === 'day') {
        const byDay = new Map(rows.map((r) => [r.key, r]));
        rows = [];
        // newest first: today heads the list (and its first page)
        for (let d = to; d >= from; d = addDays(d, -1)) rows.push(byDay.get(d) ?? { key: d, ...zero });
      } else rows.sort((a, b) => b.bids - a.bids || b.requests - a.requests || a.key.localeCompare(b.key));
      const ids = rows.map((r) => Number(r.key)).filter((n) => Number.isSafeInteger(n) && n > 0);
      if (q.group === 'campaign' && ids.length) {
        const names = await db
          .select({ id: campaigns.id, name: campaigns.title })
          .from(campaigns)
          .where(inArray(campaigns.id, ids));
        const byId = new Map(names.map((n) => [String(n.id), n.name]));
        rows = rows.map((r) => (byId.has(r.key) ? { ...r, name: byId.get(r.key) as string } : r));
      }
      let spent = 0n;
      const total = { ...zero };
      for (const r of raw) {
        spent += BigInt(r.spent ?? '0');
        total.requests += Number(r.requests);
        total.bids += Number(r.bids);
        total.wins += Number(r.wins);
        total.impressions += Number(r.impressions);
      }
      total.spent = fromMicros(spent);
      total.ecpm = ecpmOf(spent, total.impressions);
      return { rows, total };
    },
  };
}
export type PrebidPartnersRepository = ReturnType<typeof createPrebidPartnersRepository>;
