import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { hourOf } from './delivery.repository.ts';

/** One hour's widget answers: served (`requests`) and drawn (`rendered`, their impression beacon). */
export interface TrafficDelta {
  hour: Date;
  siteId: number;
  widgetId: number;
  requests: number;
  rendered: number;
}

/** One hour's counts of one of a site's materials in one widget. */
export interface MaterialDelta {
  hour: Date;
  siteId: number;
  widgetId: number;
  materialId: number;
  impressions: number;
  clicks: number;
}

/** Writes the counts of widget answers and of materials shown (upserts, added to what is there). */
export function createTrafficRepository(db: Db) {
  return {
    async write(traffic: TrafficDelta[], materials: MaterialDelta[]) {
      if (!traffic.length && !materials.length) return;
      // rows in key order (two flushes of several instances wait for each other instead of deadlocking)
      const byKey =
        <T>(key: (x: T) => string) =>
        (a: T, b: T) =>
          key(a) < key(b) ? -1 : 1;
      const t = traffic.sort(byKey((d) => `${d.hour.getTime()}|${d.siteId}|${d.widgetId}`)).map((d) => ({
        hour: d.hour.toISOString(),
        site_id: d.siteId,
        widget_id: d.widgetId,
        requests: d.requests,
        rendered: d.rendered,
      }));
      const m = materials
        .sort(byKey((d) => `${d.hour.getTime()}|${d.siteId}|${d.widgetId}|${d.materialId}`))
        .map((d) => ({
          hour: d.hour.toISOString(),
          site_id: d.siteId,
          widget_id: d.widgetId,
          material_id: d.materialId,
          impressions: d.impressions,
          clicks: d.clicks,
        }));
      await db.transaction(async (tx) => {
        if (t.length)
          await tx.execute(sql`
            insert into widget_traffic (hour, site_id, widget_id, requests, rendered)
            select hour, site_id, widget_id, requests, rendered
            from jsonb_to_recordset(${JSON.stringify(t)}::jsonb) as r(
              hour timestamptz, site_id bigint, widget_id bigint, requests bigint, rendered bigint)
            on conflict (hour, site_id, widget_id) do update set
              requests = widget_traffic.requests + excluded.requests,
              rendered = widget_traffic.rendered + excluded.rendered`);
        if (m.length)
          await tx.execute(sql`
            insert into material_stats (hour, site_id, widget_id, material_id, impressions, clicks)
            select hour, site_id, widget_id, material_id, impressions, clicks
            from jsonb_to_recordset(${JSON.stringify(m)}::jsonb) as r(
              hour timestamptz, site_id bigint, widget_id bigint, material_id bigint, impressions bigint,
              clicks bigint)
            on conflict (hour, site_id, widget_id, material_id) do update set
              impressions = material_stats.impressions + excluded.impressions,
              clicks = material_stats.clicks + excluded.clicks`);
      });
    },
  };
}
export type TrafficRepository = ReturnType<typeof createTrafficRepository>;

/**
 * The counts of widget answers and of materials shown, kept in memory between flushes: a serve answer,
 * an impression beacon or a material click adds to a map entry (no database work on the request);
 * `take` hands the counts to the flush and starts afresh, `putBack` returns counts a failed write kept.
 */
export function createTrafficCounter() {
  let traffic = new Map<string, TrafficDelta>();
  let materials = new Map<string, MaterialDelta>();

  function widgetEntry(siteId: number, widgetId: number, at: Date) {
    const hour = hourOf(at);
    const key = `${hour.getTime()}|${siteId}|${widgetId}`;
    let d = traffic.get(key);
    if (!d) {
      d = { hour, siteId, widgetId, requests: 0, rendered: 0 };
      traffic.set(key, d);
    }
    return d;
  }
  function materialEntry(siteId: number, widgetId: number, materialId: number, hour: Date) {
    const key = `${hour.getTime()}|${siteId}|${widgetId}|${materialId}`;
    let d = materials.get(key);
    if (!d) {
      d = { hour, siteId, widgetId, materialId, impressions: 0, clicks: 0 };
      materials.set(key, d);
    }
    return d;
  }

  return {
    /** A serve answer of the widget. */
    request(siteId: number, widgetId: number, at = new Date()) {
      widgetEntry(siteId, widgetId, at).requests += 1;
    },
    /** The impression beacon of an answer: drawn, with these materials in it. */
    rendered(siteId: number, widgetId: number, materialIds: readonly number[], at = new Date()) {
      widgetEntry(siteId, widgetId, at).rendered += 1;
      const hour = hourOf(at);
      for (const id of materialIds) materialEntry(siteId, widgetId, id, hour).impressions += 1;
    },
    /** A visitor clicked a material of an answer. */
    materialClick(siteId: number, widgetId: number, materialId: number, at = new Date()) {
      materialEntry(siteId, widgetId, materialId, hourOf(at)).clicks += 1;
    },
    get size() {
      return traffic.size + materials.size;
    },
    take(): { traffic: TrafficDelta[]; materials: MaterialDelta[] } {
      const taken = { traffic: [...traffic.values()], materials: [...materials.values()] };
      traffic = new Map();
      materials = new Map();
      return taken;
    },
    putBack(kept: { traffic: TrafficDelta[]; materials: MaterialDelta[] }) {
      for (const d of kept.traffic) {
        const e = widgetEntry(d.siteId, d.widgetId, d.hour);
        e.requests += d.requests;
        e.rendered += d.rendered;
      }
      for (const d of kept.materials) {
        const e = materialEntry(d.siteId, d.widgetId, d.materialId, d.hour);
        e.impressions += d.impressions;
        e.clicks += d.clicks;
      }
    },
  };
}
export type TrafficCounter = ReturnType<typeof createTrafficCounter>;
