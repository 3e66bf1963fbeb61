import type { TrackingMacroName, WidgetItem, WidgetSettings } from '@adp/contract';
import { headerUrl } from '../lib/location.ts';
import { safeFetch } from '../lib/safe-fetch.ts';
import type { SharedStore } from '../lib/shared-store.ts';
import type { AdIndexHolder, Decision, IndexedCampaign, IndexedCreative, IndexedWidget } from './ad-index.ts';
import type { CampaignCounters } from './counters.ts';
import {
  type Buffered,
  type ClickWrite,
  type DeliveryRepository,
  type EventWrite,
  hourOf,
  type RollupDelta,
} from './delivery.repository.ts';
import type { Exchange } from './exchange/exchange.ts';
import { offerSlot } from './exchange/slot.ts';
import { byteString } from './fast-answer.ts';
import type { FeedItem } from './feeds/index.ts';
import { splitCharge } from './money-split.ts';
import { feedPicks, MAX_FEEDS } from './processors/feeds.ts';
import { organicItems, pageMaterial } from './processors/organic.ts';
import { rankBySimilarity } from './processors/similarity.ts';
import { defaultPlan, type Plan, planFor } from './processors.ts';
import type { Shown, ShownItem, TokenSigner } from './tokens.ts';
import { createTrafficCounter, type TrafficRepository } from './traffic.ts';
import type { RequestHeaders, Visitor, VisitorReader } from './visitor/visitor.ts';
import type { WidgetItems } from './widget-items.ts';

/** What a serve, beacon or click request brings: read by the routes, nothing else. */
export interface DeliveryRequest {
  ip: string;
  headers: RequestHeaders;
  visitorId: string;
  audiences: readonly string[];
  pageUrl: string | null;
  /** Creatives the widget already shows (`/more`, never empty): others first. */
  seen?: ReadonlySet<number>;
}

export interface ServeAnswer {
  widget: { _id: string; settings: WidgetSettings };
  items: WidgetItem[];
  impression_url: string | null;
  viewable_url: string | null;
}

export type ClickResult =
  | { status: 'bad_token'; reason: string }
  | { status: 'charged' | 'invalid'; reason: string | null; location: string | null; clickId: string | null };

const HOUR_MS = 3_600_000;

/** articlerelevant ranks this many creatives (one per campaign) drawn at random by weight. */
const RELEVANT_POOL = 50;
const DAY_MS = 24 * HOUR_MS;
/** Click batches being charged at once (each one transaction on its own pooled connection). */
const COMMITS_IN_FLIGHT = 3;
/** The most clicks one charge transaction takes, and the queue that starts a batch beside another. */
const MAX_BATCH = 500;
const PARALLEL_BATCH_AT = 64;
/**
 * Buffered events per flush transaction, written with their rollup increments merged per row in the same
 * transaction. Large on purpose: a second of a busy server's impressions falls on a few thousand rollup
 * rows, and each row upserted once per transaction instead of once per small chunk is most of the
 * database's work of a flush (a 1,000-event chunk of 250 campaigns upserted some 3,600 rollup rows).
 */
const FLUSH_CHUNK = 50_000;
/** The organic sources that show the widget's own site's materials (the others: other sites', promotions). */
const ownSources = new Set(['newest', 'random', 'language', 'recommend', 'news']);

/**
 * The widget's settings as an answer carries them: with the site's switches the embed script obeys
 * (SiteSwitches), named as the renderer reads them, when they are on.
 */
function servedSettings(w: IndexedWidget): WidgetSettings & Record<string, unknown> {
  const { noindex, countOnScroll } = w.site;
  // a grid widget loads more as the visitor scrolls; a slider, a builder's blocks and a fixed box keep theirs
  const infinite = w.site.infinite && w.settings.type === 'default';
  if (!noindex && !countOnScroll && !infinite && !w.marketplaceUrl) return w.settings;
  return {
    ...w.settings,
    ...(infinite ? { is_infinite: true } : {}),
    ...(noindex ? { noindex: true } : {}),
    ...(countOnScroll ? { count_on_scroll: true } : {}),
    // where the "Ads by" label leads
    ...(w.marketplaceUrl ? { marketplace_url: w.marketplaceUrl } : {}),
  };
}

/**
 * A site's article URL with the UTM marks of the widget that links to it (mark_traffic), before its
 * fragment, the rest of the URL as it was written. A URL with UTM marks of its own keeps them alone (a mix
 * of two sources' marks would tell the site's analytics neither).
 */
export function markTraffic(url: string, widgetId: number): string {
  try {
    const u = new URL(url);
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return url;
    for (const k of u.searchParams.keys()) if (k.startsWith('utm_')) return url;
  } catch {
    return url;
  }
  // where the visitor came from, as the site's analytics reads it
  const marks = `utm_source=adplatform&utm_medium=widget&utm_campaign=widget_${widgetId}`;
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  const joiner = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${joiner}${marks}${fragment}`;
}

/** The page a click came from (its Referer), when it is an http(s) address: where a dead end sends back. */
function backTo(referer: string | string[] | undefined): string | null {
  if (typeof referer !== 'string' || referer.length > 2048) return null;
  try {
    const url = new URL(referer);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Fills the tracking macros of a template; values are URL-encoded. */
export function fillMacros(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (m, name: string) =>
    name in values ? encodeURIComponent(values[name] as string) : m,
  );
}

/** The creative's URL with the campaign's UTM parameters (macros filled) appended, header-safe (headerUrl). */
export function landingUrl(url: string, utm: string, values: Record<string, string>): string {
  const query = fillMacros(utm.trim().replace(/^[?&]+/, ''), values);
  // a redirect's Location: characters beyond ASCII (a Cyrillic path, a UTM value) percent-encoded
  if (!query) return headerUrl(url);
  const hash = url.indexOf('#');
  const base = hash < 0 ? url : url.slice(0, hash);
  const fragment = hash < 0 ? '' : url.slice(hash);
  return headerUrl(`${base}${base.includes('?') ? '&' : '?'}${query}${fragment}`);
}

/** The money of one click (money-split.ts; kept here for the callers that import it from the engine). */
export { splitCharge };

export interface DeliveryDeps {
  repo: DeliveryRepository;
  index: AdIndexHolder;
  counters: CampaignCounters;
  store: SharedStore;
  signer: TokenSigner;
  visitors: VisitorReader;
  widgetItems: WidgetItems;
  publicUrl: string;
  /** Seconds a token lives (CLICK_TTL). */
  clickTtl: number;
  /** How often buffered impressions and views are written. */
  flushMs?: number;
  /** Where the counts of widget answers and of materials shown are written (with the flush). */
  traffic?: TrafficRepository;
  allowLoopback?: boolean;
  /** The outbound auction (DSP partners); serving skips it while no partner is active. */
  exchange?: Exchange;
  log: { error: (o: object, msg: string) => void; warn: (o: object, msg: string) => void };
}

/**
 * Delivery's decisions and bookkeeping: which items a widget shows, what a beacon counts, whether a click
 * is charged. Serving reads memory only (the ad index, the counters' local copy, one shared-store read for
 * capped creatives); impressions and views are buffered and written in batches with their rollups; clicks
 * are written and charged in group-committed transactions before their redirect.
 */
export function createDeliveryEngine(deps: DeliveryDeps) {
  const { repo, index, counters, store, signer, visitors, publicUrl } = deps;
  const ttlMs = deps.clickTtl * 1000;

  // --- buffered impressions, views and rejected clicks -------------------------------------------------
  let buffer: Buffered[] = [];
  let rejected = new Map<string, number>();
  let flushing: Promise<void> | null = null;
  // widget answers served and drawn, the site's own materials shown and clicked: counts in memory
  const counted = createTrafficCounter();
  // what the system page shows of the flushes: the last one that wrote something, the last failure
  let lastFlushAt: number | null = null;
  let lastFlushError: string | null = null;
  async function flush(): Promise<void> {
    if (flushing) await flushing;
    if (buffer.length === 0 && rejected.size === 0 && counted.size === 0) return;
    const deltas = buffer;
    const rejects = rejected;
    buffer = [];
    rejected = new Map();
    flushing = (async () => {
      let written = 0;
      try {
        for (; written < deltas.length; written += FLUSH_CHUNK)
          await repo.writeBuffered(deltas.slice(written, written + FLUSH_CHUNK));
        const at = new Date();
        for (const [reason, n] of rejects) await repo.reject(reason, n, at);
        await writeCounted();
        lastFlushAt = Date.now();
        lastFlushError = null;
      } catch (err) {
        lastFlushError = (err as Error)?.message ?? String(err);
        // the database is away: keep the counts not yet written for the next round rather than lose them
        buffer = deltas.slice(written).concat(buffer);
        deps.log.error({ err }, 'delivery: buffered impressions not written; retrying');
      }
    })().finally(() => {
      flushing = null;
    });
    return flushing;
  }
  async function writeCounted() {
    if (!deps.traffic || counted.size === 0) return;
    const taken = counted.take();
    try {
      await deps.traffic.write(taken.traffic, taken.materials);
    } catch (err) {
      counted.putBack(taken);
      throw err;
    }
  }
  const flushTimer = setInterval(() => void flush(), deps.flushMs ?? 1000);
  flushTimer.unref();

  // --- group commit of clicks ---------------------------------------------------------------------------
  type Job = {
    write: ClickWrite;
    done: (o: Awaited<ReturnType<DeliveryRepository['commitClicks']>>[number] | Error) => void;
  };
  let queue: Job[] = [];
  // One batch commits at a time, and the clicks that arrive meanwhile wait to go together in the next:
  // batches lock the same hot rows (a busy publisher, a busy campaign) and would wait for each other's
  // commit anyway, so one large batch per commit charges more clicks per second than several small ones.
  // Only a queue long enough to fill a batch of its own starts a second batch beside the first (the rows
  // are locked in one order, so batches wait for each other, never deadlock).
  let inFlight = 0;
  function drain() {
    while (
      queue.length &&
      inFlight < COMMITS_IN_FLIGHT &&
      (inFlight === 0 || queue.length >= PARALLEL_BATCH_AT)
    ) {
      const batch = queue.slice(0, MAX_BATCH);
      queue = queue.slice(batch.length);
      inFlight += 1;
      repo
        .commitClicks(batch.map((j) => j.write))
        .then(
          (outcomes) => {
            batch.forEach((j, i) => {
              const o = outcomes[i] as NonNullable<(typeof outcomes)[number]>;
              // the statistics follow the outcome, buffered and written with the impressions
              const r = j.write.rollup;
              buffer.push(
                o.status === 'charged' ? r : { ...r, clicks: 0, invalidClicks: 1, spent: 0n, earned: 0n },
              );
              j.done(o);
            });
          },
          (err) => {
            for (const j of batch) j.done(err as Error);
          },
        )
        .finally(() => {
          inFlight -= 1;
          drain();
        });
    }
  }
  const commit = (write: ClickWrite) =>
    new Promise<Awaited<ReturnType<DeliveryRepository['commitClicks']>>[number] | Error>((done) => {
      queue.push({ write, done });
      drain();
    });

  // --- serving ---------------------------------------------------------------------------------------------
  const capKey = (kind: 'i' | 'c', visitorId: string, creativeId: number) =>
    `cap:${kind}:${visitorId}:${creativeId}`;

  /** This visitor's counts of the index's capped creatives (found once per build), one store read. */
  async function seenCounts(visitorId: string, cappedCreatives: readonly IndexedCreative[]) {
    const capped = cappedCreatives.slice(0, 200);
    const seen = new Map<number, { impressions: number; clicks: number }>();
    if (!capped.length || !visitorId) return seen;
    const values = await store.values(
      capped.flatMap((c) => [capKey('i', visitorId, c.id), capKey('c', visitorId, c.id)]),
    );
    capped.forEach((c, i) => {
      seen.set(c.id, { impressions: values[2 * i] ?? 0, clicks: values[2 * i + 1] ?? 0 });
    });
    return seen;
  }

  function decisionFor(
    widget: IndexedWidget,
    visitor: Visitor,
    req: DeliveryRequest,
    seen: Map<number, { impressions: number; clicks: number }>,
  ): Decision {
    return {
      now: new Date(),
      device: visitor.device,
      os: visitor.os,
      browser: visitor.browser,
      browserLanguage: visitor.browserLanguage,
      userLanguage: visitor.browserLanguage,
      country: visitor.country,
      cityId: visitor.cityId,
      siteId: String(widget.siteId),
      widgetType: widget.settings.type,
      siteLanguage: widget.siteLanguage,
      ip: visitor.ip,
      audiences: req.audiences,
      dspPartnerId: null,
      prebidPartnerId: null,
      seen: { impressions: 0, clicks: 0 },
      widget,
      mayServe: (c: IndexedCampaign) => counters.mayServe(c),
      seenOf: (id: number) => seen.get(id) ?? { impressions: 0, clicks: 0 },
    };
  }

  /** A sponsored item chosen for an answer: a creative, or an external feed's item under a cpcfeed campaign. */
  type Pick = { creative: IndexedCreative; feed?: FeedItem };

  /**
   * The sponsored picks of a plan, or null when a processor that is all about one kind of ad (markup, feed)
   * has none: then the default plan serves instead.
   */
  async function sponsoredPicks(
    plan: Plan,
    ads: ReturnType<AdIndexHolder['get']>,
    widget: IndexedWidget,
    visitor: Visitor,
    req: DeliveryRequest,
    n: number,
  ): Promise<Pick[] | null> {
    const seen = ads.anyCapping ? await seenCounts(req.visitorId, ads.capped) : new Map();
    const decision = decisionFor(widget, visitor, req, seen);
    const opts = {
      order: plan.order === 'ctr' ? ('ctr' as const) : ('random' as const),
      adstypes: plan.adstypes,
    };
    if (plan.kind === 'feed') {
      const campaigns = ads.select(decision, MAX_FEEDS, opts);
      const picks = await feedPicks(
        campaigns,
        {
          ip: visitor.ip,
          userAgent: String(req.headers['user-agent'] ?? ''),
          pageUrl: req.pageUrl,
          language: visitor.browserLanguage,
          country: visitor.country,
          visitorId: req.visitorId,
        },
        n,
        { allowLoopback: deps.allowLoopback, warn: (o, msg) => deps.log.warn(o, msg) },
      );
      return picks.length ? picks.map((p) => ({ creative: p.creative, feed: p.item })) : null;
    }
    if (plan.order === 'relevant') {
      // a wider random draw, then the creatives closest to the page's material first
      const wide = Math.max(n, RELEVANT_POOL);
      let pool = ads.select(decision, wide, req.seen ? { ...opts, exclude: req.seen } : opts);
      // the seen ones too when too few others are left to fill the answer
      if (req.seen && pool.length < n) pool = ads.select(decision, wide, opts);
      const page = await pageMaterial(deps.widgetItems, widget.siteId, req.pageUrl);
      const ranked = page
        ? rankBySimilarity(`${page.title} ${page.text}`, pool, (c) => `${c.title} ${c.text}`)
        : pool;
      return ranked.slice(0, n).map((creative) => ({ creative }));
    }
    let picked = ads.select(decision, n, req.seen ? { ...opts, exclude: req.seen } : opts);
    if (req.seen && picked.length < n) {
      // every other creative is shown already: the seen ones again rather than a short answer (one per
      // campaign still)
      const campaigns = new Set(picked.map((c) => c.campaign.id));
      const again = ads.select(decision, n, { ...opts, exclude: new Set(picked.map((c) => c.id)) });
      for (const c of again) {
        if (picked.length >= n) break;
        if (campaigns.has(c.campaign.id)) continue;
        campaigns.add(c.campaign.id);
        picked.push(c);
      }
    }
    if (plan.kind === 'markup') picked = picked.filter((c) => c.campaign.srcCode.trim() !== '');
    if (plan.kind === 'video') picked = picked.filter((c) => c.video);
    if (plan.fallback && picked.length === 0) return null;
    return picked.map((creative) => ({ creative }));
  }

  // --- answers as JSON text ----------------------------------------------------------------------------
  // An answer is mostly what the index already holds: the widget's settings and each creative's texts.
  // Their JSON is written once per index build (the caches hold the index's own objects, so a rebuild
  // starts them afresh) and an answer only joins the pieces around its click URLs. The pieces are UTF-8
  // already, one byte per character (byteString): the joined answer is written as it is, where text with
  // one character beyond Latin-1 (a Cyrillic title, the '…' of a widget's settings) made the whole answer
  // two bytes a character, encoded and measured again on every request.
  /** PUBLIC_URL as it stands inside a JSON string, as bytes. */
  const quotedPublicUrl = byteString(JSON.stringify(publicUrl).slice(1, -1));
  const widgetHeads = new WeakMap<IndexedWidget, string>();
  const creativeParts = new WeakMap<IndexedCreative, readonly [string, string]>();
  const organicJson = new WeakMap<WidgetItem, string>();

  /** `{"widget":{…},"items":[`: the start of every answer of this widget. */
  function widgetHead(w: IndexedWidget): string {
    let head = widgetHeads.get(w);
    if (head === undefined) {
      head = byteString(
        `{"widget":${JSON.stringify({ _id: String(w.id), settings: servedSettings(w) })},"items":[`,
      );
      widgetHeads.set(w, head);
    }
    return head;
  }
  /** A creative's item without its click URL: the JSON before it and after it. */
  function partsOf(c: IndexedCreative): readonly [string, string] {
    let parts = creativeParts.get(c);
    if (!parts) {
      const before = JSON.stringify({ id: `b${c.id}`, title: c.title, text: c.text, image: c.image ?? '' });
      // always there, '' when the campaign names no brand (DESIGN.md's item shape)
      const brand = `,"brand":${JSON.stringify(c.campaign.brand ?? '')}`;
      // on_image_load: the embed script counts the answer once this item's image has loaded
      const onLoad = c.campaign.onImageLoad && c.image ? ',"on_image_load":true' : '';
      parts = [
        byteString(`${before.slice(0, -1)},"url":"`),
        byteString(`"${brand},"sponsored":true${onLoad}}`),
      ];
      creativeParts.set(c, parts);
    }
    return parts;
  }
  /** An organic item's JSON (the widget item caches hand out the same objects again and again). */
  function organicOf(item: WidgetItem): string {
    let json = organicJson.get(item);
    if (json === undefined) {
      json = byteString(JSON.stringify(item));
      organicJson.set(item, json);
    }
    return json;
  }

  /**
   * A site's own material with the UTM marks of the widget that shows it (mark_traffic). The marked items are
   * kept per widget (one index build) and item (the item caches hand out the same ones for a minute), so
   * their JSON is kept too.
   */
  const markedItems = new WeakMap<IndexedWidget, WeakMap<WidgetItem, WidgetItem>>();
  function markedOf(widget: IndexedWidget, item: WidgetItem): WidgetItem {
    let items = markedItems.get(widget);
    if (!items) {
      items = new WeakMap();
      markedItems.set(widget, items);
    }
    let marked = items.get(item);
    if (!marked) {
      marked = Object.freeze({ ...item, url: markTraffic(item.url, widget.id) });
      items.set(item, marked);
    }
    return marked;
  }

  async function answer(
    widgetId: number,
    req: DeliveryRequest,
    offset: number,
    count: number | null,
    asJson = false,
  ) {
    const ads = index.get();
    const widget = ads.widget(widgetId);
    if (!widget) return null;
    const wanted = count ?? widget.slots;
    const visitor = visitors.read({ ip: req.ip, headers: req.headers });

    // the widget's processor; one that fails, or has nothing of its one kind, degrades to the default plan
    const choose = async (plan: Plan) => {
      let picks: Pick[] | null = [];
      if (!visitor.bot && plan.sponsored)
        picks = await sponsoredPicks(
          plan,
          ads,
          widget,
          visitor,
          req,
          Math.min(wanted, plan.maxSponsored ?? wanted),
        );
      if (picks === null) return null;
      const organic =
        plan.organic && picks.length < wanted
          ? await organicItems(deps.widgetItems, plan.source ?? 'newest', {
              widget,
              browserLanguage: visitor.browserLanguage,
              pageUrl: req.pageUrl,
              count: wanted - picks.length,
              offset,
            })
          : [];
      return { plan, picks, organic };
    };
    const plan = planFor(widget);
    let chosen: Awaited<ReturnType<typeof choose>>;
    try {
      chosen = await choose(plan);
    } catch (err) {
      deps.log.warn({ err, widgetId, processor: widget.processor }, 'processor failed; default plan serves');
      chosen = null;
    }
    if (!chosen && plan !== defaultPlan) chosen = await choose(defaultPlan);
    // strict_items_amount: every slot filled or nothing shown (a partner's win only takes a slot's place)
    if (chosen && widget.site.strictItems && chosen.picks.length + chosen.organic.length < wanted)
      chosen = null;
    // mark_traffic: the links to the site's own articles say which widget brought the visitor
    if (chosen && widget.site.markTraffic && ownSources.has(chosen.plan.source ?? 'newest'))
      chosen.organic = chosen.organic.map((it) => (/^m\d+$/.test(it.id) ? markedOf(widget, it) : it));
    // DSP partners may outbid our best creative for the first slot (delivery/exchange); none active: no cost
    const dsp =
      chosen && deps.exchange?.hasPartners()
        ? await offerSlot(deps.exchange, chosen, {
            widget,
            visitor,
            req,
            wanted,
            referrer: ads.referrer(widget.publisherId),
          })
        : null;
    const picks = chosen?.picks ?? [];
    const organicShown = chosen?.organic ?? [];
    // the site's own materials of the answer (not other sites' articles, not promotion pages)
    const materials = ownSources.has(chosen?.plan.source ?? 'newest')
      ? organicShown.flatMap((it) => (/^m\d+$/.test(it.id) ? [Number(it.id.slice(1))] : []))
      : [];
    // bots are not counted; an answer with nothing in it has nothing to draw
    const tracked = !visitor.bot && (picks.length > 0 || organicShown.length > 0);
    if (!visitor.bot) counted.request(widget.siteId, widget.id);

    const shown: Shown = {
      impressionId: signer.newImpressionId(),
      issuedAt: Math.floor(Date.now() / 1000),
      widgetId: widget.id,
      siteId: widget.siteId,
      visitorId: req.visitorId,
      country: visitor.country ?? '',
      city: visitor.city ?? '',
      device: visitor.device ?? '',
      os: visitor.os ?? '',
      browser: visitor.browser ?? '',
      items: picks.map(
        ({ creative: c, feed }): ShownItem => ({
          campaignId: c.campaign.id,
          bannerId: c.id,
          price: c.campaign.clickprice,
          ...(feed ? { url: feed.url } : {}),
        }),
      ),
      ...(materials.length ? { materials: materials.slice(0, 256) } : {}),
    };
    // one signature for the whole answer: its beacons and every item's click URL carry it
    const token = tracked ? signer.signAnswer(shown) : '';
    const clickBase = `${publicUrl}/click/${token}.`;
    const itemOf = ({ creative: c, feed }: Pick, i: number): WidgetItem => {
      const url = clickBase + i;
      if (feed)
        return {
          id: `f${c.id}-${i}`,
          title: feed.title,
          text: feed.text,
          image: feed.image,
          url,
          brand: feed.brand || c.campaign.brand || '',
          sponsored: true,
        };
      return {
        id: `b${c.id}`,
        title: c.title,
        text: c.text,
        image: c.image ?? '',
        url,
        brand: c.campaign.brand || '',
        sponsored: true,
        // a plain creative's picture only: markup and video draw no <img> to wait for
        ...(c.campaign.onImageLoad &&
        c.image &&
        chosen?.plan.kind !== 'markup' &&
        chosen?.plan.kind !== 'video'
          ? { on_image_load: true }
          : {}),
        ...(chosen?.plan.kind === 'markup' ? { html: c.campaign.srcCode } : {}),
        ...(chosen?.plan.kind === 'video' && c.video ? { video: c.video } : {}),
      };
    };
    // the JSON text of a plain creative's item is joined from prepared pieces (below): no object for it
    const plainJson = asJson && chosen?.plan.kind !== 'markup' && chosen?.plan.kind !== 'video';
    const items: WidgetItem[] = plainJson ? [] : picks.map(itemOf);
    const organic = chosen?.organic ?? [];
    // the items as JSON text, when the caller sends them: creatives' items from their prepared pieces
    let itemsJson: string[] | null = null;
    if (asJson) {
      // the click URL inside a JSON string (PUBLIC_URL is configuration; the token is base64url)
      const quotedBase = `${quotedPublicUrl}/click/${token}.`;
      itemsJson = picks.map((pick, i) => {
        const { creative: c, feed } = pick;
        if (feed || !plainJson) return byteString(JSON.stringify(items[i] ?? itemOf(pick, i)));
        const [before, after] = partsOf(c);
        return before + quotedBase + i + after;
      });
      for (const item of organic) itemsJson.push(organicOf(item));
    }
    if (dsp) {
      items.unshift(dsp.item);
      itemsJson?.unshift(byteString(JSON.stringify(dsp.item)));
    }
    if (!plainJson) items.push(...organic);
    return {
      widget,
      // with a plain answer asked as JSON text, the text (itemsJson, UTF-8 bytes) alone has the items
      items,
      itemsJson,
      token,
      tracked,
      // the JSON text writes its beacons from the token itself (serveJsonBytes)
      impression_url: tracked && !asJson ? `${publicUrl}/serve/i/${token}` : null,
      viewable_url: tracked && !asJson ? `${publicUrl}/serve/v/${token}` : null,
    };
  }

  function eventOf(shown: Shown, kind: EventWrite['kind']): EventWrite {
    return {
      kind,
      at: new Date(),
      siteId: shown.siteId,
      widgetId: shown.widgetId,
      country: shown.country,
      city: shown.city ?? '',
      device: shown.device,
      os: shown.os,
      browser: shown.browser,
      visitorId: shown.visitorId,
      items: shown.items,
    };
  }

  // --- clicks -------------------------------------------------------------------------------------------
  async function destination(bannerId: number, campaignId: number) {
    const c = index.get().creative(bannerId);
    if (c) return { url: c.url, utm: c.campaign.utm, trackUrls: c.campaign.trackUrls };
    return repo.destination(bannerId, campaignId);
  }

  function fireTrackUrls(urls: string[], values: Record<string, string>) {
    for (const u of urls) {
      safeFetch(fillMacros(u, values), {
        timeoutMs: 3000,
        maxBytes: 64 * 1024,
        allowLoopback: deps.allowLoopback,
      }).catch((err) => deps.log.warn({ err, url: u }, 'track URL failed'));
    }
  }

  return {
    /**
     * `serve`, as the JSON the route sends, its UTF-8 bytes one per character (byteString): written from
     * pieces prepared once per index build, to be sent as `latin1`.
     */
    async serveJsonBytes(widgetId: number, req: DeliveryRequest): Promise<string | null> {
      const a = await answer(widgetId, req, 0, null, true);
      if (!a) return null;
      const beacons = a.tracked
        ? `"impression_url":"${quotedPublicUrl}/serve/i/${a.token}","viewable_url":"${quotedPublicUrl}/serve/v/${a.token}"`
        : '"impression_url":null,"viewable_url":null';
      return `${widgetHead(a.widget)}${(a.itemsJson ?? []).join(',')}],${beacons}}`;
    },

    /** `GET /serve/widgets/:id`: the widget, its items, and the beacons of the sponsored ones. */
    async serve(widgetId: number, req: DeliveryRequest): Promise<ServeAnswer | null> {
      const a = await answer(widgetId, req, 0, null);
      if (!a) return null;
      return {
        widget: { _id: String(a.widget.id), settings: servedSettings(a.widget) },
        items: a.items,
        impression_url: a.impression_url,
        viewable_url: a.viewable_url,
      };
    },

    /**
     * `GET /serve/widgets/:id/more`: the next items of a widget that loads as the visitor scrolls or slides. Creatives the
     * widget already shows (`seen`) come again only when no other one can fill the answer.
     */
    async more(widgetId: number, offset: number, req: DeliveryRequest) {
      const widget = index.get().widget(widgetId);
      if (!widget) return null;
      const per = Math.max(widget.settings.columns * widget.settings.rows, 1);
      const a = await answer(widgetId, req, offset, per);
      if (!a) return null;
      return { items: a.items, impression_url: a.impression_url, viewable_url: a.viewable_url };
    },

    /** A beacon: the sponsored items of one answer count as impressions (or viewable) once. */
    async beacon(
      kind: 'impression' | 'view',
      token: string,
      peek = false,
    ): Promise<'counted' | 'ignored' | 'bad_token'> {
      const shown = signer.read(token);
      if (typeof shown === 'string') return 'bad_token';
      // a HEAD says whether the token reads, and counts nothing
      if (peek || signer.expired(shown.issuedAt)) return 'ignored';
      // viewable impressions are a part of the impressions (MRC): a view before its answer's impression
      // beacon counts nothing
      if (kind === 'view' && !(await store.has(`imp:${shown.impressionId}`))) return 'ignored';
      if (!(await store.claim(`${kind === 'impression' ? 'imp' : 'view'}:${shown.impressionId}`, ttlMs)))
        return 'ignored';
      buffer.push(eventOf(shown, kind));
      if (kind === 'impression') counted.rendered(shown.siteId, shown.widgetId, shown.materials ?? []);
      if (kind === 'impression' && shown.visitorId && index.get().anyCapping) {
        for (const it of shown.items) {
          const c = index.get().creative(it.bannerId);
          const cap = c?.targeting.capping;
          if (cap?.state === 'active')
            await store.add(capKey('i', shown.visitorId, it.bannerId), 1, cap.period_hours * HOUR_MS);
        }
      }
      return 'counted';
    },

    /**
     * `GET /serve/m/<answer token>.<material id>`: the visitor clicked one of the site's own materials of
     * an answer (the link goes to the article itself; the embed script reports the click). Counted once
     * per answer and material, never charged.
     */
    async materialClick(token: string, peek = false): Promise<'counted' | 'ignored' | 'bad_token'> {
      const dot = token.lastIndexOf('.');
      const id = dot > 0 ? token.slice(dot + 1) : '';
      if (!/^\d{1,15}$/.test(id)) return 'bad_token';
      const shown = signer.read(token.slice(0, dot));
      if (typeof shown === 'string') return 'bad_token';
      const materialId = Number(id);
      if (!shown.materials?.includes(materialId)) return 'bad_token';
      if (peek || signer.expired(shown.issuedAt)) return 'ignored';
      if (!(await store.claim(`mclk:${shown.impressionId}:${materialId}`, ttlMs))) return 'ignored';
      counted.materialClick(shown.siteId, shown.widgetId, materialId);
      return 'counted';
    },

    /**
     * `GET /click/<token>`: decides whether the click is charged, charges it (committed before this
     * returns), and says where the visitor goes. A token we did not sign has no destination.
     */
    async click(token: string, req: DeliveryRequest, peek = false): Promise<ClickResult> {
      const claim = signer.readClick(token);
      if (typeof claim === 'string') {
        if (!peek) rejected.set(claim, (rejected.get(claim) ?? 0) + 1);
        return { status: 'bad_token', reason: claim };
      }
      const { item } = claim;
      // an external feed's item goes to the feed's own click URL (signed into the token), as it is
      const dest = item.url
        ? { url: item.url, utm: '', trackUrls: [] as string[] }
        : await destination(item.bannerId, item.campaignId);
      if (!dest) {
        // a token we signed, for a creative deleted since: not charged, and the visitor is not punished
        // with an error page but sent to the site's default advertorial, else back where the click came
        // from (when the browser says)
        if (!peek) rejected.set('unknown_creative', (rejected.get('unknown_creative') ?? 0) + 1);
        return {
          status: 'invalid',
          reason: 'unknown_creative',
          location: index.get().widget(claim.widgetId)?.advertorialUrl ?? backTo(req.headers.referer),
          clickId: null,
        };
      }
      const ads = index.get();
      const campaign = ads.campaigns.get(item.campaignId);
      const widget = ads.widget(claim.widgetId);
      const visitor = visitors.read({ ip: req.ip, headers: req.headers });
      const tokenKey = `${claim.impressionId}:${claim.position}`;
      const clickId = signer.clickId(tokenKey);
      // every macro of the contract's trackingMacros, which decode-URL also reads as tracking parameters
      const values: Record<TrackingMacroName, string> = {
        campaign_id: String(item.campaignId),
        banner_id: String(item.bannerId),
        site_id: String(claim.siteId),
        widget_id: String(claim.widgetId),
        click_id: clickId,
        country: claim.country,
        device: claim.device,
        os: claim.os,
        timestamp: String(Math.floor(Date.now() / 1000)),
      };
      const location = landingUrl(dest.url, dest.utm, values);
      // a HEAD (a link checker, a prefetch): where the click goes, without using the click up
      if (peek) return { status: 'invalid', reason: 'head', location, clickId };
      const visitorId = claim.visitorId || req.visitorId;

      let reason: string | null = null;
      let release: (() => Promise<void>) | null = null;
      if (!(await store.claim(`clk:${tokenKey}`, ttlMs + HOUR_MS))) reason = 'replayed';
      else if (signer.expired(claim.issuedAt)) reason = 'expired';
      else if (visitor.bot) reason = 'bot';
      else if (!(await store.has(`imp:${claim.impressionId}`))) reason = 'too_fast';
      else if (!campaign || !widget) reason = 'not_serving';
      else {
        const creative = ads.creative(item.bannerId);
        const cap = creative?.targeting.capping;
        if (cap?.state === 'active' && cap.clicks !== null && visitorId) {
          const [clicks = 0] = await store.values([capKey('c', visitorId, item.bannerId)]);
          if (clicks >= cap.clicks) reason = 'capping';
        }
        // a filter's place is taken now and given back when the click ends up not charged. Both places are
        // taken whatever the filter, so a campaign switched to onetoone or lock during the day counts the
        // clicks charged before the switch (its last 24 hours)
        const filterKeys: string[] = [];
        if (!reason) {
          const who = visitorId || `ip:${req.ip}`;
          const visitorKey = `f1:${campaign.id}:${who}`;
          const ipKey = `fl:${campaign.id}:${req.ip}`;
          const firstOfVisitor = await store.claim(visitorKey, DAY_MS);
          if (firstOfVisitor) filterKeys.push(visitorKey);
          const firstOfIp = await store.claim(ipKey, DAY_MS);
          if (firstOfIp) filterKeys.push(ipKey);
          if (campaign.clickFilter !== 'dummy' && !firstOfVisitor) reason = 'filter_onetoone';
          else if (campaign.clickFilter === 'lock' && !firstOfIp) reason = 'filter_lock';
        }
        const giveBackFilters = async () => {
          for (const k of filterKeys) await store.reset(k);
        };
        if (!reason) {
          const r = await counters.reserve(campaign, item.price);
          if ('limit' in r) reason = r.limit;
          else
            release = async () => {
              await r.release();
              await giveBackFilters();
            };
        }
        if (reason) await giveBackFilters();
      }

      const charged = reason === null && campaign && widget;
      // the statistics of this click, counted as what it turns out to be: charged (below), invalid (its
      // outcome in drain), replayed (here). Built once in its final shape, as the row is: objects copied
      // with spread and grown afterwards were a third of this function's own time under load
      const rollup = (counts: {
        clicks: number;
        invalidClicks: number;
        spent: bigint;
        earned: bigint;
      }): RollupDelta => ({
        hour: hourOf(new Date()),
        campaignId: item.campaignId,
        bannerId: item.bannerId,
        siteId: claim.siteId,
        widgetId: claim.widgetId,
        country: claim.country,
        city: claim.city ?? '',
        device: claim.device,
        os: claim.os,
        browser: claim.browser,
        clicks: counts.clicks,
        invalidClicks: counts.invalidClicks,
        spent: counts.spent,
        earned: counts.earned,
      });
      // replays caught by the shared store have no row of their own (the first use has it): counted as
      // invalid in the statistics, and by their reason with the refused tokens (click_rejections)
      if (reason === 'replayed') {
        buffer.push(rollup({ clicks: 0, invalidClicks: 1, spent: 0n, earned: 0n }));
        rejected.set(reason, (rejected.get(reason) ?? 0) + 1);
        return { status: 'invalid', reason, location, clickId };
      }
      const split = charged
        ? splitCharge(
            item.price,
            widget,
            // the site's affiliate first, then the advertiser's and the publisher's referrers
            [widget.affiliate, ads.referrer(campaign.userId), ads.referrer(widget.publisherId)].filter(
              (r): r is { userId: number; bp: bigint } => r !== undefined && r !== null,
            ),
            campaign.agency,
          )
        : null;
      const write: ClickWrite = {
        row: {
          clickId,
          tokenKey,
          status: split ? 'charged' : 'invalid',
          reason,
          campaignId: item.campaignId,
          bannerId: item.bannerId,
          siteId: claim.siteId,
          widgetId: claim.widgetId,
          visitorId,
          ip: req.ip,
          country: claim.country,
          city: claim.city ?? '',
          device: claim.device,
          os: claim.os,
          browser: claim.browser,
          // where the click came from (click sources): the page only, a query may carry a visitor's data
          referrer: req.pageUrl ? req.pageUrl.replace(/[?#].*$/s, '').slice(0, 500) : '',
          price: split ? item.price : 0n,
          publisherEarned: split ? split.publisher : 0n,
          agencyEarned: split ? split.agency : 0n,
          referralEarned: split ? split.referral : 0n,
          platformEarned: split ? split.platform : 0n,
        },
        charge:
          split && campaign
            ? { campaignId: campaign.id, price: item.price, credits: split.credits, platform: split.platform }
            : undefined,
        rollup: split
          ? rollup({ clicks: 1, invalidClicks: 0, spent: item.price, earned: split.publisher })
          : rollup({ clicks: 0, invalidClicks: 1, spent: 0n, earned: 0n }),
      };
      const outcome = await commit(write);
      if (outcome instanceof Error) {
        deps.log.error({ err: outcome }, 'click not written: not charged');
        if (release) await release();
        return { status: 'invalid', reason: 'not_recorded', location, clickId: null };
      }
      if (outcome.status !== 'charged') {
        if (release) await release();
        return { status: 'invalid', reason: outcome.reason, location, clickId: null };
      }
      const creative = ads.creative(item.bannerId);
      const cap = creative?.targeting.capping;
      if (cap?.state === 'active' && visitorId)
        await store.add(capKey('c', visitorId, item.bannerId), 1, cap.period_hours * HOUR_MS);
      if (dest.trackUrls.length) fireTrackUrls(dest.trackUrls, values);
      return { status: 'charged', reason: null, location, clickId };
    },

    /**
     * `GET /postback`: a conversion of a charged click, once. A HEAD (`peek`: a link checker, a prefetch)
     * says whether the click is known and records nothing.
     */
    postback: async (clickId: string, sum: bigint | null, status: string | null, peek = false) =>
      peek
        ? (await repo.isCharged(clickId))
          ? ('repeat' as const)
          : null
        : repo.convert(clickId, sum, status, new Date()),

    flush,
    /** What waits in memory for the next flush or click batch (the admin's system page). */
    buffers() {
      let rejects = 0;
      for (const n of rejected.values()) rejects += n;
      return {
        events: buffer.length + rejects,
        traffic: counted.size,
        clicks: queue.length,
        lastFlushAt,
        lastError: lastFlushError,
      };
    },
    async close() {
      clearInterval(flushTimer);
      while (inFlight || queue.length) await new Promise((r) => setTimeout(r, 5));
      await flush();
    },
  };
}
export type DeliveryEngine = ReturnType<typeof createDeliveryEngine>;
