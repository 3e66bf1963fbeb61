import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { pixelVisitors } from '../../db/schema/index.ts';

/** The longest page address kept per visitor: enough for real URLs, not for a payload. */
export const MAX_URL_LENGTH = 2000;

/** What the advertiser pastes: the script, and an image for browsers without JavaScript. */
export function pixelCode(publicUrl: string, pixelId: number | string): string {
  return (
    `<script async src="${publicUrl}/pixel.js" data-pixel="${pixelId}"></script>\n` +
    `<noscript><img src="${publicUrl}/px/${pixelId}.gif" width="1" height="1" alt="" style="display:none"></noscript>`
  );
}

/**
 * Adds one visit of a visitor to a pixel's audience. One statement: an unknown pixel selects no row, so
 * nothing is written and no foreign key error reaches the host page's request. True when recorded.
 */
export async function recordVisit(db: Db, pixelId: number, visitorId: string, url: string): Promise<boolean> {
  const lastUrl = url.slice(0, MAX_URL_LENGTH);
  const result = await db.execute(sql`
    insert into pixel_visitors (pixel_id, visitor_id, last_url)
    select p.id, ${visitorId}, ${lastUrl} from pixels p where p.id = ${pixelId}
    on conflict (pixel_id, visitor_id) do update
      set visits = pixel_visitors.visits + 1, last_seen = now(),
          last_url = case when excluded.last_url = '' then pixel_visitors.last_url else excluded.last_url end
    returning pixel_id`);
  // both drivers answer {rows}; the shared Db type cannot say so
  return ((result as unknown as { rows: unknown[] }).rows ?? []).length > 0;
}

/**
 * Remarketing: the ids of the pixels whose audience holds this visitor (banner targeting matches them).
 * @example await audiencesOf(db, 'k3J…') // ['12', '40']
 */
export async function audiencesOf(db: Db, visitorId: string): Promise<string[]> {
  if (!visitorId) return [];
  const rows = await db
    .selectDistinct({ pixelId: pixelVisitors.pixelId })
    .from(pixelVisitors)
    .where(eq(pixelVisitors.visitorId, visitorId));
  return rows.map((r) => String(r.pixelId));
}
