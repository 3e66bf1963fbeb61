import type { BuilderBlock, WidgetItem, WidgetSettings } from '@adp/contract';

export interface RenderOptions {
  /** Infinite widgets call this when the end of the list scrolls into view; resolve to [] when there is no more. */
  onLoadMore?: () => Promise<WidgetItem[]>;
  /** The link of an item (a click-tracking URL, say); `item.url` otherwise. Only http(s) results are used. */
  clickUrl?: (item: WidgetItem) => string;
  /** Where the "Ads by AdPlatform" logo links to. */
  logoUrl?: string;
  now?: () => number;
  /** Holds the interstitial's page-view counter; localStorage by default, null to turn counting off. */
  storage?: Storage | null;
  /** The widget's id: keys the page-view counter so two widgets on one site count separately. */
  id?: string;
  /**
   * Called once the cards of an answer are in the page: after each drawing (initial render or update)
   * with every card drawn, and after each load of more with the new cards; `cards[i]` shows `items[i]`.
   */
  onShow?: (items: WidgetItem[], cards: HTMLElement[]) => void;
  /**
   * Called when the visitor opens an item: a click (or a middle click) on its card, or for markup (an
   * ad in an iframe, whose own links we do not see) the first click into the frame, told by the page
   * losing focus to it.
   */
  onOpen?: (item: WidgetItem) => void;
}

/**
 * Settings as served: the contract's fields plus the optional language and the site's switches (the
 * infinite flag; `noindex`: links nofollow, the widget out of search snippets; `count_on_scroll`: read by
 * the embed script; `marketplace_url`: where the "Ads by" label leads in place of the platform's home).
 */
type Settings = WidgetSettings & {
  is_infinite?: boolean;
  marketplace_url?: string;
  noindex?: boolean;
  count_on_scroll?: boolean;
  language?: string;
  lang?: string;
};

export interface WidgetHandle {
  /** Re-renders with new settings and items (the live preview calls this as the form changes). */
  update(settings: Partial<WidgetSettings>, items: WidgetItem[]): void;
  destroy(): void;
}

/** The contract's defaults, so a partial (unsaved, or older) settings object still renders. */
export const DEFAULT_SETTINGS: WidgetSettings = {
  type: 'default',
  width: 0,
  columns: 4,
  column_width: 180,
  rows: 1,
  font: 'inherit',
  font_size: 14,
  title_color: '#222222',
  text_color: '#555555',
  background_color: '#ffffff',
  hover_color: '#1e6fd9',
  hide_logo: false,
  text_max_length: null,
  truncation_suffix: '…',
  is_slider: false,
  slider_timer: 0,
  slider_max_times: 0,
  direction: 'ltr',
  rewind: true,
  slides_per_move: 1,
  load_limit: 0,
  autosize: true,
  position: 'bottom-right',
  height: 0,
  open_in_new_tab: true,
  interstitial_time: 0,
  interstitial_pages: 0,
  blocks: [],
};

const GAP = 12;

// The shadow root keeps our rules from reaching the page and the page's selectors from reaching our
// elements. Inheritance still crosses the boundary, and a page rule matching the host element beats
// `:host{all:initial}`, so the container resets everything once more (`all` leaves custom properties alone).
// Only the font family is inherited on purpose: a widget without a font of its own writes in the page's.
// Everything that depends on settings arrives through custom properties.
const CSS = `:host{all:initial;display:block;font-family:inherit}
*{box-sizing:border-box}
.w{all:initial;display:block;position:relative;width:var(--w);max-width:100%;background:var(--bg);color:var(--tx);font-family:var(--f);font-size:var(--fs);line-height:1.35;text-align:start}
.g{display:grid;gap:${GAP}px;grid-template-columns:repeat(auto-fill,minmax(min(100%,max(var(--cw),calc((100% - (var(--c) - 1) * ${GAP}px) / var(--c)))),1fr))}
.g+.g,.hero+.g{margin-top:${GAP}px}
.i{display:block;color:inherit;text-decoration:none;overflow:hidden;min-width:0}
.m{display:block;overflow:hidden;background:#eee}
.m img{display:block;width:100%;height:auto;border:0}
.fx .m{aspect-ratio:16/9}
.fx .m img{height:100%;object-fit:cover}
.t{display:block;margin:6px 0 2px;color:var(--tc);font-weight:600;overflow-wrap:anywhere}
.i:hover .t,.i:focus .t{color:var(--hc)}
.x{display:block;color:var(--tx);overflow-wrap:anywhere}
.mt{display:flex;flex-wrap:wrap;align-items:center;gap:2px 6px;margin:2px 0;font-size:.8em}
.s{opacity:.7}
.ad{padding:0 4px;border:1px solid;border-radius:3px;font-size:.85em;line-height:1.5;opacity:.75}
.hero .t{font-size:1.3em}
.l .i{display:flex;gap:10px;align-items:flex-start}
.l .m{flex:0 0 30%;max-width:160px}
.bd{display:block;flex:1;min-width:0}
.l .t{margin-top:0}
.hero .m img{max-height:420px;object-fit:cover}
.to .m{display:none}
.mo{grid-auto-flow:dense}
.mo>:nth-child(5n+1){grid-column:span 2;grid-row:span 2}
.mo>:nth-child(5n+1) .t{font-size:1.2em}
.hs{display:flex;gap:${GAP}px;overflow-x:auto;scroll-snap-type:x mandatory}
.hs>*{flex:0 0 min(var(--cw),85%);scroll-snap-align:start}
.blk+.blk{margin-top:${GAP * 2}px}
.lg{display:block;margin-top:6px;color:#999;font:11px/1.4 sans-serif;text-align:end;text-decoration:none}
.vp{overflow:hidden}
.tr{display:flex;transition:transform .4s ease}
@media (prefers-reduced-motion:reduce){.tr{transition:none}}
.sd{flex:0 0 var(--p);min-width:0;padding:0 ${GAP / 2}px}
.ttb .vp{height:var(--h)}
.ttb .tr{flex-direction:column;height:100%}
.ttb .sd{padding:${GAP / 2}px 0;overflow:hidden}
.nv{display:flex;justify-content:flex-end;gap:6px;margin-top:6px}
.nv button,.cl{min-width:32px;height:32px;border:1px solid #ccc;border-radius:16px;background:#fff;color:#333;font:16px/1 sans-serif;cursor:pointer}
button:disabled{opacity:.4;cursor:default}
.pf{position:fixed;z-index:2147483646;box-sizing:border-box;max-width:calc(100vw - 20px);max-height:90vh;overflow:auto;padding:40px 12px 12px;border-radius:6px;box-shadow:0 4px 24px rgba(0,0,0,.3)}
@media (max-width:600px){.pf{max-height:30vh}}
.p-bottom-right{bottom:10px;right:10px}.p-bottom-left{bottom:10px;left:10px}.p-top-right{top:10px;right:10px}.p-top-left{top:10px;left:10px}
.p-bottom,.p-top{left:50%;transform:translateX(-50%)}.p-bottom{bottom:0}.p-top{top:0}
.cl{position:absolute;top:4px;right:4px}
.ov{position:fixed;top:0;right:0;bottom:0;left:0;z-index:2147483647;display:flex;align-items:center;justify-content:center;padding:20px;background:rgba(0,0,0,.75)}
.ov>.w{width:900px;max-height:100%;overflow:auto;padding:40px 16px 16px;border-radius:6px}
.cd{position:absolute;top:10px;left:16px;font:13px sans-serif;opacity:.7}`;

let sheetOnce: CSSStyleSheet | null | undefined;
/** The widget's rules as one constructed sheet shared by every widget of the page, or null without support. */
function sharedSheet(): CSSStyleSheet | null {
  if (sheetOnce !== undefined) return sheetOnce;
  try {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(CSS);
    sheetOnce = 'adoptedStyleSheets' in ShadowRoot.prototype ? sheet : null;
  } catch {
    sheetOnce = null;
  }
  return sheetOnce;
}

const COLOR = /^#[0-9a-f]{3}([0-9a-f]{3})?$/i;

/**
 * Returns the absolute URL when it is http(s), null otherwise (javascript:, data:, garbage).
 * @example safeUrl('javascript:alert(1)') // null
 */
export function safeUrl(value: unknown): string | null {
  if (typeof value !== 'string' || !value) return null;
  try {
    const url = new URL(value, document.baseURI);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * Cuts text to `max` characters (code points) plus the suffix; null means no truncation.
 * @example truncate('Hello world', 5, '…') // 'Hello…'
 */
export function truncate(text: string, max: number | null, suffix: string): string {
  if (max == null) return text;
  const chars = Array.from(text);
  return chars.length > max ? chars.slice(0, max).join('').trimEnd() + suffix : text;
}

/** The sponsored label by language; anything else is English. */
const AD: Record<string, string> = {
  en: 'Ad',
  ru: 'Реклама',
  uk: 'Реклама',
  de: 'Anzeige',
  fr: 'Annonce',
  pt: 'Anúncio',
};

/** The logo link's words by language ("Ads by AdPlatform"); anything else is English. */
const BY: Record<string, string> = {
  ru: 'Реклама от AdPlatform',
  uk: 'Реклама від AdPlatform',
  de: 'Anzeigen von AdPlatform',
  fr: 'Annonces par AdPlatform',
  pt: 'Anúncios por AdPlatform',
};

const langOf = (lang: unknown) =>
  String(lang || '')
    .slice(0, 2)
    .toLowerCase();

/**
 * The sponsored label in a language (`pt-BR` counts as `pt`), English when unknown.
 * @example adLabel('de-AT') // 'Anzeige'
 */
export function adLabel(lang: unknown): string {
  return AD[langOf(lang)] ?? 'Ad';
}

/** The logo link's words in a language, as adLabel. */
export function logoLabel(lang: unknown): string {
  return BY[langOf(lang)] ?? 'Ads by AdPlatform';
}

function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  cls?: string,
  text?: string,
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  if (cls) el.className = cls;
  if (text != null) el.textContent = text;
  return el;
}

function button(cls: string, label: string, text: string, onClick: () => void): HTMLButtonElement {
  const b = h('button', cls, text);
  b.type = 'button';
  b.setAttribute('aria-label', label);
  b.addEventListener('click', onClick);
  return b;
}

/*
 * Builder formats: the layout of one block's items.
 *   0 big card + list      the first item large, the rest as a list with thumbnails
 *   1 2 columns            2 per row (fewer on narrow screens, by column_width)
 *   2 3 columns
 *   3 4 columns
 *   4 list                 one per row, thumbnail left of the text
 *   5 text only            grid of titles and texts, no images
 *   6 hero + grid          the first item across the full width, the rest in a grid of `columns`
 *   7 horizontal scroller  one row that scrolls sideways, cards column_width wide
 *   8 mosaic               grid of `columns` where every fifth item takes 2×2 cells
 * Block types: native = the format as is; infinity = the format, loading more at its end (like `infinite`);
 * amp = a static list (format 4, no scripts); 3_2_1 = rows of 3, 2 and 1 items, repeating.
 */

/**
 * Renders a widget into `host` inside an open shadow root and returns a handle to update or remove it.
 * @example
 * const handle = renderWidget(el, { type: 'slide', slider_timer: 5 }, items);
 * handle.update({ type: 'default' }, items);
 */
export function renderWidget(
  host: HTMLElement,
  settings: Partial<WidgetSettings>,
  items: WidgetItem[],
  opts: RenderOptions = {},
): WidgetHandle {
  const shadow = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const now = opts.now ?? Date.now;
  // A constructed style sheet where the browser has them: a page whose Content-Security-Policy allows no
  // inline styles blocks a <style> element (the widget came out unstyled, images at full size) but not
  // a sheet built by the script. Older browsers get the element.
  const sheet = sharedSheet();
  const style = sheet ? null : h('style', '', CSS);
  if (sheet) shadow.adoptedStyleSheets = [sheet];
  shadow.replaceChildren(...(style ? [style] : []));
  let main: HTMLElement | null = null;
  // Per render: timers and observers of the current drawing, dropped on update.
  let stops: (() => void)[] = [];
  // Per page view: the interstitial outlives updates.
  let overlayStop: (() => void) | null = null;
  // Per page view: listeners that live until destroy.
  const overlayStops: (() => void)[] = [];

  // Cards of the drawing under way, reported through onShow once it is in the page.
  let drawn: [WidgetItem[], HTMLElement[]] | null = null;
  const show = (items: WidgetItem[], cards: HTMLElement[]) => {
    try {
      opts.onShow?.(items, cards);
    } catch {
      // A failing observer must not break the widget.
    }
  };

  const open = (item: WidgetItem) => {
    try {
      opts.onOpen?.(item);
    } catch {
      // A failing observer must not break the link.
    }
  };
  // Markup frames and their items: a click into a frame moves the focus from the page to it.
  const frames = new WeakMap<Element, WidgetItem>();
  if (opts.onOpen && typeof window !== 'undefined') {
    const onBlur = () =>
      setTimeout(() => {
        const active = shadow.activeElement;
        const item = active ? frames.get(active) : undefined;
        if (item) open(item);
      }, 0);
    window.addEventListener('blur', onBlur);
    overlayStops.push(() => window.removeEventListener('blur', onBlur));
  }

  const merge = (s: Partial<WidgetSettings>): Settings => {
    const m: Settings = { ...DEFAULT_SETTINGS, ...s };
    for (const k of ['title_color', 'text_color', 'background_color', 'hover_color'] as const) {
      if (!COLOR.test(m[k])) m[k] = DEFAULT_SETTINGS[k];
    }
    // The preview renders settings the form has not validated yet; keep the layout arithmetic sane.
    for (const k of ['columns', 'rows', 'slides_per_move', 'column_width', 'font_size'] as const) {
      if (!(m[k] >= 1)) m[k] = DEFAULT_SETTINGS[k];
    }
    m.blocks = Array.isArray(m.blocks) ? m.blocks : [];
    return m;
  };

  const vars = (el: HTMLElement, s: Settings, fixed = false) => {
    const set = (k: string, v: string) => el.style.setProperty(`--${k}`, v);
    set('w', s.width ? `${s.width}px` : fixed ? '320px' : '100%');
    set('cw', `${s.column_width}px`);
    set('c', String(s.columns));
    set('bg', s.background_color);
    set('tx', s.text_color);
    set('tc', s.title_color);
    set('hc', s.hover_color);
    // The font name is free text: keep it from closing the declaration.
    set('f', s.font.replace(/[;{}<>\\]/g, '') || 'inherit');
    set('fs', `${s.font_size}px`);
  };

  const card = (item: WidgetItem, s: Settings, cls = ''): HTMLAnchorElement => {
    const a = h('a', `i ${cls}`.trim());
    const sponsored = item.sponsored !== false;
    const href = safeUrl(opts.clickUrl ? opts.clickUrl(item) : item.url);
    if (href) {
      a.href = href;
      if (s.open_in_new_tab) a.target = '_blank';
      const rel = [
        sponsored && 'sponsored',
        s.noindex && 'nofollow',
        (sponsored || s.open_in_new_tab) && 'noopener',
      ];
      const value = rel.filter(Boolean).join(' ');
      if (value) a.rel = value;
    }
    if (drawn) {
      drawn[0].push(item);
      drawn[1].push(a);
    }
    if (opts.onOpen) {
      a.addEventListener('click', () => open(item));
      a.addEventListener('auxclick', (e) => {
        if (e.button === 1) open(item);
      });
    }
    // advertiser markup (criteo, adsense) runs in a sandbox of its own, never in the page
    if (item.html) {
      const f = h('iframe');
      f.setAttribute('sandbox', 'allow-scripts allow-popups allow-popups-to-escape-sandbox');
      f.srcdoc = item.html;
      frames.set(f, item);
      f.style.cssText = 'border:0;width:100%';
      a.append(f);
      return a;
    }
    const src = safeUrl(item.image);
    const video = safeUrl(item.video);
    if (src || video) {
      const m = h('span', 'm');
      const img = h(video ? 'video' : 'img');
      img.src = (video || src) as string;
      if (img instanceof HTMLVideoElement) {
        img.muted = img.loop = img.autoplay = img.playsInline = true;
        if (src) img.poster = src;
      } else {
        img.alt = '';
        img.loading = 'lazy';
      }
      m.append(img);
      a.append(m);
    }
    const body = h('span', 'bd');
    body.append(h('span', 't', String(item.title ?? '')));
    // The label and the brand come right under the title, where a cut (vertical slider) cannot hide them.
    if (sponsored || item.brand) {
      const meta = h('span', 'mt');
      if (sponsored)
        meta.append(h('span', 'ad', adLabel(s.language || s.lang || document.documentElement.lang)));
      if (item.brand) meta.append(h('span', 's', item.brand));
      body.append(meta);
    }
    const text = truncate(String(item.text ?? ''), s.text_max_length, s.truncation_suffix);
    if (text) body.append(h('span', 'x', text));
    a.append(body);
    return a;
  };

  const grid = (list: WidgetItem[], s: Settings, columns: number, cls = ''): HTMLElement => {
    const g = h('div', `g ${cls}`.trim());
    g.style.setProperty('--c', String(columns));
    for (const item of list) g.append(card(item, s));
    return g;
  };

  // Loading more is shared by the whole widget so load_limit counts every load of this drawing.
  const loader = (s: Settings) => {
    let loads = 0;
    let busy = false;
    let done = !opts.onLoadMore;
    const observers: IntersectionObserver[] = [];
    const stop = () => {
      done = true;
      for (const io of observers) io.disconnect();
    };
    stops.push(stop);
    const limited = () => s.load_limit > 0 && loads >= s.load_limit;
    /** Asks for one more answer and hands its items to `add`; a failed load just ends the list. */
    const load = async (add: (more: WidgetItem[]) => void): Promise<void> => {
      const onLoadMore = opts.onLoadMore;
      if (busy || done || !onLoadMore) return;
      if (limited()) return stop();
      busy = true;
      loads++;
      let more: WidgetItem[] = [];
      try {
        more = await onLoadMore();
      } catch {
        // The embed reports its own fetch failures.
      }
      busy = false;
      if (done) return;
      if (more.length) add(more);
      if (!more.length || limited()) stop();
    };
    /** A sentinel after `target` that loads more into it when it scrolls into view. */
    const sentinel = (target: HTMLElement): HTMLElement => {
      const el = h('div', 'sn');
      if (done || typeof IntersectionObserver === 'undefined') return el;
      const io = new IntersectionObserver(async (entries) => {
        if (!entries.some((e) => e.isIntersecting)) return;
        await load((more) => {
          const cards = more.map((item) => card(item, s));
          target.append(...cards);
          show(more, cards);
        });
        if (done) return;
        // Observing again reports the sentinel's state afresh, so a short page that still shows it loads on.
        io.unobserve(el);
        io.observe(el);
      });
      observers.push(io);
      io.observe(el);
      return el;
    };
    return { load, sentinel, more: () => !done };
  };

  const slider = (list: WidgetItem[], s: Settings, more: ReturnType<typeof loader>): HTMLElement => {
    const ttb = s.direction === 'ttb';
    const rtl = s.direction === 'rtl';
    // Vertical slides are cut to the box height, so they use the compact list card.
    const wrap = h('div', ttb ? 'sl ttb l' : 'sl');
    const viewport = h('div', 'vp');
    const track = h('div', 'tr');
    if (rtl) track.dir = 'rtl';
    // Horizontal sliders show as many columns as fit the container (all of them before layout exists),
    // measured again when the container's width changes (a phone turned, a column collapsing).
    let perView = 1;
    let pct = 100;
    const fitView = () => {
      const fit = host.clientWidth ? Math.floor(host.clientWidth / s.column_width) : s.columns;
      const was = perView;
      perView = Math.max(1, ttb ? s.rows : Math.min(s.columns, fit));
      pct = 100 / perView;
      wrap.style.setProperty('--p', `${pct}%`);
      return perView !== was;
    };
    fitView();
    if (ttb) wrap.style.setProperty('--h', `${s.height || 360}px`);
    let count = 0;
    const add = (items: WidgetItem[]) =>
      items.map((item) => {
        const slide = h('div', 'sd');
        const c = card(item, s);
        slide.append(c);
        track.append(slide);
        count++;
        return c;
      });
    add(list);
    let last = 0;
    let index = 0;
    // ‹ and › are bidi-mirrored: in the rtl navigation bar they turn to point the way they move.
    const prev = button('pv', 'Previous', ttb ? '▲' : '‹', () => move(-1));
    const next = button('nx', 'Next', ttb ? '▼' : '›', () => move(1));
    const go = (i: number) => {
      last = Math.max(0, count - perView);
      index = i;
      track.dataset.index = String(i);
      const offset = i * pct;
      track.style.transform = ttb ? `translateY(-${offset}%)` : `translateX(${rtl ? '' : '-'}${offset}%)`;
      prev.disabled = last === 0 || (!s.rewind && i === 0);
      next.disabled = last === 0 || (!s.rewind && i === last);
      // The slider has run out: ask for more, which extend the track.
      if (i >= last) {
        void more.load((items) => {
          show(items, add(items));
          go(index);
        });
      }
    };
    // More on their way: the end is not the end yet.
    const waiting = () => index >= last && more.more();
    // At an end a move rewinds to the other end, or reports that it could not move.
    const move = (dir: 1 | -1): boolean => {
      if (dir > 0 && waiting()) return true;
      if (dir > 0 ? index >= last : index <= 0) {
        if (!s.rewind || last === 0) return false;
        go(dir > 0 ? 0 : last);
        return true;
      }
      go(Math.min(last, Math.max(0, index + dir * s.slides_per_move)));
      return true;
    };
    go(0);
    if (!ttb && typeof ResizeObserver !== 'undefined') {
      const ro = new ResizeObserver(() => {
        if (fitView()) go(Math.min(index, Math.max(0, count - perView)));
      });
      ro.observe(host);
      stops.push(() => ro.disconnect());
    }
    if (s.slider_timer > 0 && (last > 0 || more.more())) {
      let moves = 0;
      let paused = false;
      // Autoplay runs only while the slider is in view and the page shown: slides (and the answers loaded
      // at the end of the track) nobody can see would count as impressions.
      let inView = typeof IntersectionObserver === 'undefined';
      if (!inView) {
        const io = new IntersectionObserver((entries) => {
          for (const e of entries) inView = e.isIntersecting;
        });
        io.observe(wrap);
        stops.push(() => io.disconnect());
      }
      wrap.addEventListener('mouseenter', () => {
        paused = true;
      });
      wrap.addEventListener('mouseleave', () => {
        paused = false;
      });
      const timer = setInterval(() => {
        if (paused || !inView || document.hidden || waiting()) return;
        if (!move(1) || (s.slider_max_times > 0 && ++moves >= s.slider_max_times)) clearInterval(timer);
      }, s.slider_timer * 1000);
      stops.push(() => clearInterval(timer));
    }
    const nav = h('div', 'nv');
    // Right to left, "next" is the button on the left.
    if (rtl) nav.dir = 'rtl';
    nav.append(prev, next);
    viewport.append(track);
    wrap.append(viewport, nav);
    return wrap;
  };

  const format = (f: number, list: WidgetItem[], s: Settings): [HTMLElement, HTMLElement] => {
    if (f === 0 || f === 6) {
      const box = h('div');
      const [first, ...rest] = list;
      if (first) box.append(card(first, s, 'hero'));
      const g = f === 0 ? grid(rest, s, 1, 'l') : grid(rest, s, s.columns);
      box.append(g);
      return [box, g];
    }
    if (f === 7) {
      const row = h('div', 'hs');
      for (const item of list) row.append(card(item, s));
      return [row, row];
    }
    const g =
      f >= 1 && f <= 3
        ? grid(list, s, f + 1)
        : grid(list, s, f === 4 ? 1 : s.columns, f === 4 ? 'l' : f === 5 ? 'to' : f === 8 ? 'mo' : '');
    return [g, g];
  };

  const block = (b: BuilderBlock, list: WidgetItem[], s: Settings, more: ReturnType<typeof loader>) => {
    const el = h('div', 'blk');
    el.dataset.type = b.type;
    el.dataset.format = String(b.format);
    if (b.type === 'amp') {
      el.append(grid(list, s, 1, 'l'));
    } else if (b.type === '3_2_1') {
      for (let i = 0, row = 0; i < list.length; row++) {
        const n = 3 - (row % 3);
        el.append(grid(list.slice(i, i + n), s, n, 'r'));
        i += n;
      }
    } else {
      const [box, g] = format(b.format, list, s);
      el.append(box);
      if (b.type === 'infinity') el.append(more.sentinel(g));
    }
    return el;
  };

  const draw = (s: Settings, list: WidgetItem[]): HTMLElement => {
    const fixed = s.type === 'position_fixed';
    const w = h('div', s.autosize ? 'w' : 'w fx');
    w.dataset.type = s.type;
    vars(w, s, fixed);
    const more = loader(s);
    const visible = list.slice(0, s.rows * s.columns);
    if (s.type === 'builder') {
      let from = 0;
      for (const b of s.blocks) {
        const n = b.items >= 1 ? b.items : 4;
        w.append(block(b, list.slice(from, from + n), s, more));
        from += n;
      }
    } else if (s.type === 'slide' || s.is_slider) {
      w.append(slider(list, s, more));
    } else if (s.type === 'infinite' || s.is_infinite) {
      const g = grid(list, s, s.columns);
      w.append(g, more.sentinel(g));
    } else {
      w.append(grid(visible, s, s.columns));
    }
    // an answer with nothing to show leaves nothing in the page, not a lone logo
    if (!s.hide_logo && list.length > 0) {
      const logo = h('a', 'lg', logoLabel(s.language || s.lang || document.documentElement.lang));
      const market = safeUrl(s.marketplace_url);
      const href = market ?? safeUrl(opts.logoUrl);
      if (href) {
        logo.href = href;
        logo.target = '_blank';
        // a publisher's marketplace is a commercial link of its own
        logo.rel = `${s.noindex ? 'nofollow ' : ''}${market ? 'sponsored ' : ''}noopener`;
      }
      w.append(logo);
    }
    if (s.height > 0 && (fixed || !s.autosize)) {
      w.style.height = `${s.height}px`;
      w.style.overflow = 'auto';
    }
    if (fixed) {
      w.classList.add('pf', `p-${s.position}`);
      w.setAttribute('role', 'complementary');
      w.append(button('cl', 'Close', '×', () => w.remove()));
    }
    return w;
  };

  const interstitial = (s: Settings, list: WidgetItem[]) => {
    if (!(s.interstitial_time > 0 && s.interstitial_pages > 0)) return;
    let store: Storage | null = null;
    let views = 0;
    try {
      store = opts.storage !== undefined ? opts.storage : window.localStorage;
      if (!store) return;
      const key = `adp-widget:${opts.id ?? ''}:views`;
      views = (Number.parseInt(store.getItem(key) ?? '', 10) || 0) + 1;
      store.setItem(key, String(views));
    } catch {
      // Storage can be blocked (privacy modes, sandboxed frames): no count, no interstitial.
      return;
    }
    if (views % s.interstitial_pages !== 0) return;
    const overlay = h('div', 'ov');
    overlay.setAttribute('role', 'dialog');
    overlay.setAttribute('aria-modal', 'true');
    overlay.setAttribute('aria-label', 'Advertisement');
    const box = h('div', 'w');
    vars(box, s);
    const countdown = h('span', 'cd');
    const end = now() + s.interstitial_time;
    const tick = () => {
      countdown.textContent = `${Math.max(0, Math.ceil((end - now()) / 1000))} s`;
    };
    // a modal dialog: the focus moves into it, Tab stays inside, and returns where it was on close
    const before = document.activeElement;
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') close();
      if (e.key !== 'Tab') return;
      const stops = Array.from(box.querySelectorAll<HTMLElement>('a[href],button'));
      const at = stops.indexOf(shadow.activeElement as HTMLElement);
      const to = e.shiftKey ? (at <= 0 ? stops.length - 1 : at - 1) : at + 1 >= stops.length ? 0 : at + 1;
      e.preventDefault();
      stops[to]?.focus();
    };
    const close = () => {
      clearInterval(ticker);
      clearTimeout(timeout);
      document.removeEventListener('keydown', onKey);
      overlay.remove();
      overlayStop = null;
      if (before instanceof HTMLElement) before.focus();
    };
    const ticker = setInterval(tick, 1000);
    const timeout = setTimeout(close, s.interstitial_time);
    document.addEventListener('keydown', onKey);
    tick();
    const closer = button('cl', 'Close', '×', close);
    box.append(countdown, closer, grid(list.slice(0, s.rows * s.columns), s, s.columns));
    overlay.append(box);
    shadow.append(overlay);
    closer.focus();
    overlayStop = close;
  };

  /** The host's data-nosnippet is the widget's own (noindex), not the publisher's. */
  let ownNosnippet = false;
  const update = (next: Partial<WidgetSettings>, list: WidgetItem[]) => {
    for (const stop of stops) stop();
    stops = [];
    const cards: [WidgetItem[], HTMLElement[]] = [[], []];
    drawn = cards;
    let el: HTMLElement;
    const s = merge(next);
    // kept out of search engines' snippets (the host is in the page's own markup); an attribute the
    // publisher put there stays
    if (s.noindex && !host.hasAttribute('data-nosnippet')) {
      host.setAttribute('data-nosnippet', '');
      ownNosnippet = true;
    } else if (!s.noindex && ownNosnippet) {
      host.removeAttribute('data-nosnippet');
      ownNosnippet = false;
    }
    try {
      el = draw(s, Array.isArray(list) ? list : []);
    } finally {
      drawn = null;
    }
    if (main?.isConnected) main.replaceWith(el);
    else if (style) style.after(el);
    else shadow.prepend(el);
    main = el;
    show(...cards);
  };

  update(settings, items);
  interstitial(merge(settings), Array.isArray(items) ? items : []);

  return {
    update,
    destroy() {
      for (const stop of stops) stop();
      stops = [];
      overlayStop?.();
      for (const stop of overlayStops) stop();
      overlayStops.length = 0;
      shadow.replaceChildren();
      if (ownNosnippet) host.removeAttribute('data-nosnippet');
    },
  };
}
