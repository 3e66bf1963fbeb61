import type { WidgetItem, WidgetSettings } from '@adp/contract';
import { renderWidget, safeUrl, type WidgetHandle } from './render.ts';

export const version = '0.1.0';

export interface AdpWidgetApi {
  /** The renderer itself: the dashboard's live preview renders unsaved settings with it. */
  render: typeof renderWidget;
  version: string;
  /** Renders every `[data-adp-widget]` element not rendered yet (for containers added after load). */
  scan: () => void;
}

declare global {
  interface Window {
    AdpWidget?: AdpWidgetApi;
  }
}

/** One answer of the server: its items count as impressions and as viewable through these URLs. */
interface Answer {
  items?: unknown;
  impression_url?: unknown;
  viewable_url?: unknown;
}

interface ServeResponse extends Answer {
  widget: { _id: string; settings: Partial<WidgetSettings> };
  items: WidgetItem[];
}

/** A mounted widget: re-requested on SPA navigation. */
interface Mounted {
  el: HTMLElement;
  id: string;
  base: string;
  handle?: WidgetHandle;
  /** Counts requests of the whole widget, so an answer that arrives after a newer one is dropped. */
  seq: number;
  offset: number;
  /** The answer each shown item came from. */
  answers: WeakMap<WidgetItem, Tracked>;
  /** Viewability watches of the current answers, stopped when the widget is drawn anew. */
  stops: (() => void)[];
  /** The ids of the creatives shown since the widget was last drawn anew. */
  shownIds: string[];
  /** The site counts an answer's impression once the widget scrolls into view (count_on_scroll). */
  onScroll?: boolean;
}

/** An answer's beacons, each fired at most once. */
interface Tracked {
  impression: string | null;
  viewable: string | null;
  /** The answer's impression URL, kept after it fired: the click beacons of its items derive from it. */
  answer: string | null;
}

/**
 * The click beacon of an item, when its link does not pass through our click URL: the site's own article
 * (`m<id>`, linked directly) counts through `/serve/m/<answer token>.<id>`; advertiser markup in an
 * iframe (its own links, which we do not see) counts as a click of its sponsored item through
 * `/serve/c/<click token>`. Null for everything else (a sponsored link is counted by its redirect).
 */
export function openBeacon(item: WidgetItem, answer: string | null): string | null {
  if (item.sponsored === false) {
    const id = /^m(\d+)$/.exec(item.id)?.[1];
    if (!id || !answer || !/\/serve\/i\/[\w-]+$/.test(answer)) return null;
    return `${answer.replace(/\/serve\/i\/([\w-]+)$/, '/serve/m/$1')}.${id}`;
  }
  if (item.html && /\/click\/[\w-]+\.\d+$/.test(item.url))
    return item.url.replace(/\/click\/([\w-]+\.\d+)$/, '/serve/c/$1');
  return null;
}

const warn = (id: string, error: unknown) => console.warn(`[adp-widget] widget ${id} not shown:`, error);

// Credentials carry the visitor cookie `vid`; the server reflects the page's origin on /serve/*.
async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { credentials: 'include', headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}

/** Fires a tracking URL and forgets it; never throws. */
export function beacon(url: string): void {
  try {
    // no-cors: the 204 needs no reading, so no CORS headers are needed on it either.
    fetch(url, { keepalive: true, credentials: 'include', mode: 'no-cors' }).catch(() => {});
  } catch {
    try {
      new Image().src = url;
    } catch {
      // Nothing left to try.
    }
  }
}

// The server owns the shape; this only drops what would break rendering.
const isItem = (v: unknown): v is WidgetItem =>
  !!v && typeof v === 'object' && typeof (v as WidgetItem).title === 'string';

const itemsOf = (a: Answer | unknown[] | null): WidgetItem[] =>
  ((Array.isArray(a) ? a : Array.isArray(a?.items) ? a.items : []) as unknown[]).filter(isItem);

/** The page URL the server targets by. */
const page = () => encodeURIComponent(location.href);

/** `&seen=…`: the creatives the widget shows (the last 100), so that loading more brings others. */
function seenOf(w: Mounted): string {
  const ids = w.shownIds.slice(-100);
  return ids.length ? `&seen=${ids.join(',')}` : '';
}

/** Remembers which answer each item came from. */
function remember(w: Mounted, a: Answer | unknown[] | null, items: WidgetItem[]): void {
  for (const item of items) {
    const id = /^b(\d{1,12})$/.exec(item.id)?.[1];
    if (id) w.shownIds.push(id);
  }
  const t: Tracked = Array.isArray(a)
    ? { impression: null, viewable: null, answer: null }
    : {
        impression: safeUrl(a?.impression_url),
        viewable: safeUrl(a?.viewable_url),
        answer: safeUrl(a?.impression_url),
      };
  for (const item of items) w.answers.set(item, t);
}

/**
 * Watches an answer's cards and fires its viewable URL once they have been at least half in view for
 * one continuous second (the MRC rule) while the page is visible: any one card that stays 50 % in view
 * counts. The second restarts whenever that stops being true.
 */
function watch(w: Mounted, t: Tracked, cards: HTMLElement[]): void {
  const url = t.viewable;
  if (!url || !cards.length || typeof IntersectionObserver === 'undefined') return;
  t.viewable = null;
  const seen = new Set<Element>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (seen.size && !document.hidden) timer ??= setTimeout(fire, 1000);
    else {
      clearTimeout(timer);
      timer = undefined;
    }
  };
  const io = new IntersectionObserver(
    (entries) => {
      for (const e of entries) {
        // A hair of tolerance: browsers report a 50 % crossing as 0.4999… now and then.
        if (e.isIntersecting && e.intersectionRatio >= 0.499) seen.add(e.target);
        else seen.delete(e.target);
      }
      arm();
    },
    { threshold: 0.5 },
  );
  const stop = () => {
    io.disconnect();
    clearTimeout(timer);
    document.removeEventListener('visibilitychange', arm);
  };
  const fire = () => {
    stop();
    beacon(url);
  };
  document.addEventListener('visibilitychange', arm);
  for (const c of cards) io.observe(c);
  w.stops.push(stop);
}

/** Whether any of the cards is rendered (a box in the layout: not inside display:none). */
const rendered = (cards: HTMLElement[]) =>
  cards.some((c) => (typeof c.checkVisibility === 'function' ? c.checkVisibility() : true));

/**
 * Calls `fire` once any of the cards comes into view (count_on_scroll: a widget below the fold counts
 * when the visitor scrolls to it), or once rendered where the browser cannot tell. Never, if the widget
 * is drawn anew first.
 */
function whenInView(w: Mounted, cards: HTMLElement[], fire: () => void): void {
  if (typeof IntersectionObserver === 'undefined') {
    whenRendered(w, cards, fire);
    return;
  }
  const io = new IntersectionObserver(
    (entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      io.disconnect();
      fire();
    },
    { threshold: 0 },
  );
  for (const c of cards) io.observe(c);
  w.stops.push(() => io.disconnect());
}

/**
 * Calls `fire` once the cards are rendered: at once, or when a hidden container is shown (a tab, an
 * accordion, a menu opened later). Never, if the widget is drawn anew first.
 */
function whenRendered(w: Mounted, cards: HTMLElement[], fire: () => void): void {
  if (rendered(cards) || typeof ResizeObserver === 'undefined') {
    fire();
    return;
  }
  const ro = new ResizeObserver(() => {
    if (!rendered(cards)) return;
    ro.disconnect();
    fire();
  });
  for (const c of cards) ro.observe(c);
  w.stops.push(() => ro.disconnect());
}

/**
 * Calls `fire` once every image of these cards has loaded (a campaign's on_image_load: its impression
 * counts only when the visitor could see the picture); never while one is still loading or if one fails,
 * nor if the widget is drawn anew first.
 */
function whenImagesLoaded(w: Mounted, cards: HTMLElement[], fire: () => void): void {
  const loaded = (img: HTMLImageElement) => img.complete && img.naturalWidth > 0;
  const waiting = cards.flatMap((c) => Array.from(c.querySelectorAll('img'))).filter((img) => !loaded(img));
  let left = waiting.length;
  let live = true;
  w.stops.push(() => {
    live = false;
  });
  if (!left) fire();
  for (const img of waiting)
    img.addEventListener('load', () => live && --left === 0 && fire(), { once: true });
}

/** At most this many trackers of one item (a partner's imptrackers, clicktrackers) are fired. */
const MAX_TRACKERS = 5;
/** The http(s) trackers of an item: what a DSP's winning ad asked to be told of. */
const trackersOf = (list: unknown): string[] =>
  (Array.isArray(list) ? list : [])
    .slice(0, MAX_TRACKERS)
    .map(safeUrl)
    .filter((u): u is string => u !== null);

/**
 * Cards are in the page: once they are rendered, fire each answer's impression (and the impression
 * trackers of its items) once, and watch its viewability.
 */
function shown(w: Mounted, items: WidgetItem[], cards: HTMLElement[]): void {
  const by = new Map<
    Tracked,
    { all: HTMLElement[]; sponsored: HTMLElement[]; images: HTMLElement[]; trackers: string[] }
  >();
  items.forEach((item, i) => {
    const t = w.answers.get(item);
    const card = cards[i];
    if (!t || !card) return;
    const of = by.get(t) ?? { all: [], sponsored: [], images: [], trackers: [] };
    of.all.push(card);
    if (item.sponsored !== false) of.sponsored.push(card);
    if (item.on_image_load === true) of.images.push(card);
    of.trackers.push(...trackersOf(item.imptrackers));
    by.set(t, of);
  });
  for (const [t, of] of by) {
    const impression = t.impression;
    t.impression = null;
    const fire = () => {
      if (impression) beacon(impression);
      for (const url of of.trackers) beacon(url);
    };
    const when = w.onScroll ? whenInView : whenRendered;
    if (of.images.length === 0) {
      when(w, of.all, fire);
      watch(w, t, of.sponsored);
    } else {
      // on_image_load: the impression once the pictures have loaded, and only then the view (the server
      // counts a view only after its impression)
      when(w, of.all, () =>
        whenImagesLoaded(w, of.images, () => {
          fire();
          watch(w, t, of.sponsored);
        }),
      );
    }
  }
}

const stopWatching = (w: Mounted) => {
  for (const stop of w.stops) stop();
  w.stops = [];
};

const mounted = new Set<Mounted>();

/** Requests the widget for the current page and draws it (anew); never throws. */
async function load(w: Mounted, origin: string): Promise<void> {
  const seq = ++w.seq;
  const { el, id } = w;
  el.dataset.adpState = 'loading';
  try {
    const data = (await getJson(`${w.base}?url=${page()}`)) as Partial<ServeResponse> | null;
    if (seq !== w.seq) return;
    const settings = data?.widget?.settings;
    if (!settings || typeof settings !== 'object' || !Array.isArray(data?.items)) {
      throw new Error('unexpected response');
    }
    const items = itemsOf(data);
    stopWatching(w);
    w.answers = new WeakMap();
    w.shownIds = [];
    w.onScroll = (settings as { count_on_scroll?: unknown }).count_on_scroll === true;
    w.offset = items.length;
    remember(w, data, items);
    if (w.handle) w.handle.update(settings, items);
    else {
      w.handle = renderWidget(el, settings, items, {
        id,
        logoUrl: `${origin}/`,
        onShow: (list, cards) => shown(w, list, cards),
        onOpen: (item) => {
          const url = openBeacon(item, w.answers.get(item)?.answer ?? null);
          if (url) beacon(url);
          for (const tracker of trackersOf(item.clicktrackers)) beacon(tracker);
        },
        onLoadMore: async () => {
          const at = w.seq;
          try {
            const more = (await getJson(`${w.base}/more?offset=${w.offset}${seenOf(w)}&url=${page()}`)) as
              | Answer
              | unknown[]
              | null;
            // The page moved on meanwhile: these belong to the previous one.
            if (at !== w.seq) return [];
            const list = itemsOf(more);
            w.offset += list.length;
            remember(w, more, list);
            return list;
          } catch (error) {
            warn(id, error);
            return [];
          }
        },
      });
    }
    el.dataset.adpState = 'done';
  } catch (error) {
    if (seq !== w.seq) return;
    el.dataset.adpState = 'error';
    stopWatching(w);
    w.handle?.destroy();
    w.handle = undefined;
    el.shadowRoot?.replaceChildren();
    warn(id, error);
  }
}

/** Fetches one widget's settings and items and renders it into `el`; never throws. */
export async function mount(el: HTMLElement, origin: string): Promise<void> {
  const id = el.dataset.adpWidget;
  if (!id || el.dataset.adpState) return;
  const w: Mounted = {
    el,
    id,
    base: `${origin}/serve/widgets/${encodeURIComponent(id)}`,
    seq: 0,
    offset: 0,
    answers: new WeakMap(),
    stops: [],
    shownIds: [],
  };
  mounted.add(w);
  follow(origin);
  await load(w, origin);
}

const NAV = 'adp:locationchange';
// The fragment is left out: an in-page anchor is not a new page.
const here = () => location.href.split('#')[0];
let followed = false;
let rescan = () => {};

/**
 * Follows SPA navigation: history.pushState and replaceState are wrapped once per page (several copies
 * of this script share the wrapping), popstate is listened to, and when the page URL changed every
 * widget still in the page is requested again for it and widgets removed from the page are dropped.
 */
function follow(origin: string): void {
  if (followed) return;
  followed = true;
  const h = history as History & { adpWrapped?: boolean };
  if (!h.adpWrapped) {
    h.adpWrapped = true;
    for (const k of ['pushState', 'replaceState'] as const) {
      const original = h[k];
      h[k] = function (this: History, ...args: Parameters<History['pushState']>) {
        const result = original.apply(this, args);
        try {
          window.dispatchEvent(new Event(NAV));
        } catch {
          // The page's navigation goes on whatever happens here.
        }
        return result;
      };
    }
  }
  let last = here();
  const changed = () => {
    // After the page's router has drawn the new page.
    setTimeout(() => {
      if (here() === last) return;
      last = here();
      for (const w of Array.from(mounted)) {
        if (w.el.isConnected) void load(w, origin);
        else {
          stopWatching(w);
          w.seq++;
          mounted.delete(w);
        }
      }
      // The new page may bring containers of its own.
      rescan();
    }, 0);
  };
  window.addEventListener(NAV, changed);
  window.addEventListener('popstate', changed);
}

/** Where the script was loaded from: widgets are served by the same server. */
export function originOf(script: HTMLScriptElement | null): string {
  try {
    if (script?.src) return new URL(script.src, document.baseURI).origin;
  } catch {
    // An unparsable src falls through to the page's own origin.
  }
  return location.origin;
}

/**
 * Starts the embed: the `<script data-widget="ID">` form gets its container right after the tag, then
 * every `<div data-adp-widget="ID">` on the page is rendered once the document is parsed.
 */
export function boot(script: HTMLScriptElement | null): void {
  const origin = originOf(script);
  const id = script?.dataset.widget;
  if (script && id && !script.dataset.adpPlaced) {
    script.dataset.adpPlaced = '1';
    const div = document.createElement('div');
    div.dataset.adpWidget = id;
    script.after(div);
  }
  const scan = () => {
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-adp-widget]'))) {
      void mount(el, origin);
    }
  };
  rescan = scan;
  if (!window.AdpWidget) window.AdpWidget = { render: renderWidget, version, scan };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', scan, { once: true });
  else scan();
}

try {
  const current = document.currentScript;
  boot(current instanceof HTMLScriptElement ? current : null);
} catch (error) {
  warn('?', error);
}
