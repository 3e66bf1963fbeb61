import { eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import {
  banners,
  campaigns,
  clicks,
  prebidPartners,
  rtbNotices,
  rtbPartners,
  sites,
  widgets,
} from '../../db/schema/index.ts';

/** The names and the written click a decoded token refers to: admin lookups, off the hot path. */
export function createDecodeUrlRepository(db: Db) {
  const tables = { sites, widgets, campaigns, banners };
  const titles = async (kind: keyof typeof tables, ids: number[]): Promise<Map<number, string>> => {
    if (ids.length === 0) return new Map();
    const table = tables[kind];
    const rows = await db
      .select({ id: table.id, title: table.title })
      .from(table)
      .where(inArray(table.id, ids));
    return new Map(rows.map((r) => [r.id, r.title]));
  };
  return {
    titles,
    /** An exchange partner's name: an RTB partner's, or a Prebid partner's for a Prebid Server's bid. */
    async partnerName(channel: 'rtb' | 'prebid', id: number): Promise<string | null> {
      const table = channel === 'prebid' ? prebidPartners : rtbPartners;
      const [row] = await db.select({ name: table.name }).from(table).where(eq(table.id, id));
      return row?.name ?? null;
    },
    /** The win and billing notices received for one bid (at most one of each: their unique key). */
    async noticesOf(bidId: string) {
      return db
        .select({
          kind: rtbNotices.kind,
          price: rtbNotices.price,
          charged: rtbNotices.charged,
          createdAt: rtbNotices.createdAt,
        })
        .from(rtbNotices)
        .where(eq(rtbNotices.bidId, bidId));
    },
    /** The click row of one (answer, position): at most one exists (its unique token key). */
    async clickOf(tokenKey: string) {
      const [row] = await db
        .select({
          clickId: clicks.clickId,
          status: clicks.status,
          reason: clicks.reason,
          price: clicks.price,
          createdAt: clicks.createdAt,
        })
        .from(clicks)
        .where(sql`${clicks.tokenKey} = ${tokenKey}`);
      return row ?? null;
    },
  };
}
export type DecodeUrlRepository = ReturnType<typeof createDecodeUrlRepository>;
