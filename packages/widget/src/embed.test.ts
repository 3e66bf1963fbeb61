import type { WidgetItem } from '@adp/contract';
import { afterEach, beforeEach, describe, expect, onTestFinished, test, vi } from 'vitest';
import { makeItems } from './test-items.ts';

const ORIGIN = 'https://ads.example.com';

function respond(body: unknown, status = 200) {
  return Promise.resolve(
    new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
  );
}

async function loadEmbed() {
  vi.resetModules();
  return import('./embed.ts');
}

const settle = () => new Promise((r) => setTimeout(r, 0));

beforeEach(() => {
  document.body.replaceChildren();
  delete window.AdpWidget;
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('embed', () => {
  test('renders a data-adp-widget div from the script origin', async () => {
    const { boot } = await loadEmbed();
    const fetchMock = vi.fn((url: string) =>
      respond({ widget: { _id: 'w1', settings: { type: 'default', columns: 2 } }, items: makeItems(3) }).then(
        (r) => (url.startsWith(`${ORIGIN}/serve/widgets/w1`) ? r : new Response('', { status: 404 })),
      ),
    );
    vi.stubGlobal('fetch', fetchMock);
    document.body.innerHTML = '<div id="c" data-adp-widget="w1"></div>';
    const script = document.createElement('script');
    script.src = `${ORIGIN}/widget.js`;
    boot(script);
    await vi.waitFor(() =>
      expect(document.getElementById('c')?.shadowRoot?.querySelectorAll('a.i')).toHaveLength(2),
    );
    // The page URL travels with the request, and so does the visitor cookie.
    expect(fetchMock).toHaveBeenCalledWith(
      `${ORIGIN}/serve/widgets/w1?url=${encodeURIComponent(location.href)}`,
      expect.objectContaining({ credentials: 'include' }),
    );
    const logo = document.getElementById('c')?.shadowRoot?.querySelector<HTMLAnchorElement>('a.lg');
    expect(logo?.href).toBe(`${ORIGIN}/`);
  });

  test('the script data-widget form inserts its container after the script', async () => {
    const { boot } = await loadEmbed();
    vi.stubGlobal('fetch', () => respond({ widget: { _id: 'w2', settings: {} }, items: makeItems(1) }));
    const script = document.createElement('script');
    script.src = `${ORIGIN}/widget.js`;
    script.dataset.widget = 'w2';
    document.body.append(script);
    boot(script);
    const div = script.nextElementSibling as HTMLElement;
    expect(div.dataset.adpWidget).toBe('w2');
    await vi.waitFor(() => expect(div.shadowRoot?.querySelectorAll('a.i')).toHaveLength(1));
  });

  test('infinite loading asks /more with the offset', async () => {
    const { boot } = await loadEmbed();
    const observers: IntersectionObserverCallback[] = [];
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: IntersectionObserverCallback) {
          observers.push(cb);
        }
        observe() {}
        unobserve() {}
        disconnect() {}
      },
    );
    const fetchMock = vi.fn((url: string) =>
      url.includes('/more')
        ? respond({ items: makeItems(2, 3) })
        : respond({
            widget: { _id: 'w3', settings: { type: 'infinite', load_limit: 1 } },
            items: makeItems(3),
          }),
    );
    vi.stubGlobal('fetch', fetchMock);
    document.body.innerHTML = '<div id="c" data-adp-widget="w3"></div>';
    boot(null);
    await vi.waitFor(() => expect(observers).toHaveLength(1));
    observers[0]?.([{ isIntersecting: true } as IntersectionObserverEntry], {} as IntersectionObserver);
    await vi.waitFor(() =>
      expect(document.getElementById('c')?.shadowRoot?.querySelectorAll('a.i')).toHaveLength(5),
    );
    expect(fetchMock).toHaveBeenLastCalledWith(
      `${location.origin}/serve/widgets/w3/more?offset=3&url=${encodeURIComponent(location.href)}`,
      expect.objectContaining({ credentials: 'include' }),
    );
  });

  test('a failing fetch leaves the container empty and warns once', async () => {
    const { boot } = await loadEmbed();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('fetch', () => Promise.reject(new TypeError('network down')));
    document.body.innerHTML = '<div id="c" data-adp-widget="w4"></div>';
    expect(() => boot(null)).not.toThrow();
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(1));
    const el = document.getElementById('c') as HTMLElement;
    expect(el.dataset.adpState).toBe('error');
    expect(el.childNodes).toHaveLength(0);
    expect(el.shadowRoot?.childNodes.length ?? 0).toBe(0);
  });

  test('bad JSON and unexpected shapes are tolerated too', async () => {
    const { boot } = await loadEmbed();
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    vi.stubGlobal('fetch', (url: string) =>
      url.includes('bad')
        ? Promise.resolve(new Response('<html>', { status: 200 }))
        : respond({ nope: true }),
    );
    document.body.innerHTML = '<div data-adp-widget="bad"></div><div data-adp-widget="odd"></div>';
    boot(null);
    await vi.waitFor(() => expect(warn).toHaveBeenCalledTimes(2));
    await settle();
    for (const el of Array.from(document.querySelectorAll<HTMLElement>('[data-adp-widget]'))) {
      expect(el.dataset.adpState).toBe('error');
    }
  });

  test('exposes window.AdpWidget with the renderer and the version; scan renders later containers once', async () => {
    const { boot, version } = await loadEmbed();
    const fetchMock = vi.fn(() => respond({ widget: { _id: 'w5', settings: {} }, items: makeItems(1) }));
    vi.stubGlobal('fetch', fetchMock);
    boot(null);
    expect(window.AdpWidget?.version).toBe(version);
    expect(typeof window.AdpWidget?.render).toBe('function');
    const div = document.createElement('div');
    div.dataset.adpWidget = 'w5';
    document.body.append(div);
    window.AdpWidget?.scan();
    window.AdpWidget?.scan();
    await vi.waitFor(() => expect(div.dataset.adpState).toBe('done'));
    expect(fetchMock).toHaveBeenCalledTimes(1);
  });
});

/** A stand-in for the browser's IntersectionObserver: tests say what is in view. */
class FakeObserver {
  static all: FakeObserver[] = [];
  targets = new Set<Element>();
  constructor(
    private readonly callback: IntersectionObserverCallback,
    readonly options: IntersectionObserverInit = {},
  ) {
    FakeObserver.all.push(this);
  }
  observe(el: Element) {
    this.targets.add(el);
  }
  unobserve(el: Element) {
    this.targets.delete(el);
  }
  disconnect() {
    this.targets.clear();
  }
  /** Every observed element is now `ratio` in view. */
  report(ratio: number) {
    const entries = [...this.targets].map((target) => ({
      target,
      isIntersecting: ratio > 0,
      intersectionRatio: ratio,
    }));
    if (entries.length) this.callback(entries as unknown as IntersectionObserverEntry[], this as never);
  }
  static viewability() {
    return FakeObserver.all.filter((o) => o.options.threshold === 0.5);
  }
  static sentinels() {
    return FakeObserver.all.filter((o) => o.options.threshold === undefined);
  }
}

/** A server of one widget: each answer gets its own beacons; /more answers `more` items once. */
function adServer(settings: Record<string, unknown>, more = 2) {
  let answers = 0;
  let moreLeft = 1;
  const beacons: string[] = [];
  const fetchMock = vi.fn((url: string, _init?: RequestInit) => {
    if (url.includes('/beacon/')) {
      beacons.push(url);
      return Promise.resolve(new Response(null, { status: 204 }));
    }
    const n = ++answers;
    const urls = {
      impression_url: `${ORIGIN}/beacon/imp/${n}`,
      viewable_url: `${ORIGIN}/beacon/view/${n}`,
    };
    if (url.includes('/more')) {
      return respond({ items: moreLeft-- > 0 ? makeItems(more, 100 + n * 10) : [], ...urls });
    }
    return respond({ widget: { _id: 'w', settings }, items: makeItems(3, n * 10), ...urls });
  });
  vi.stubGlobal('fetch', fetchMock);
  return { fetchMock, beacons };
}

const titles = (el: HTMLElement | null) =>
  Array.from(el?.shadowRoot?.querySelectorAll('a.i .t') ?? []).map((t) => t.textContent);

describe('tracking', () => {
  beforeEach(() => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  test('sponsored items are labelled in the page language and the impression fires once', async () => {
    document.documentElement.lang = 'ru';
    try {
      const { boot } = await loadEmbed();
      const { fetchMock, beacons } = adServer({ type: 'default', columns: 3 });
      document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
      const script = document.createElement('script');
      script.src = `${ORIGIN}/widget.js`;
      boot(script);
      const el = document.getElementById('c');
      await vi.waitFor(() => expect(el?.dataset.adpState).toBe('done'));
      const labels = Array.from(el?.shadowRoot?.querySelectorAll('a.i .ad') ?? []).map((a) => a.textContent);
      expect(labels).toEqual(['Реклама', 'Реклама', 'Реклама']);
      expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`]);
      expect(fetchMock).toHaveBeenCalledWith(
        `${ORIGIN}/beacon/imp/1`,
        expect.objectContaining({ keepalive: true, credentials: 'include' }),
      );
      window.AdpWidget?.scan();
      await settle();
      expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`]);
    } finally {
      document.documentElement.lang = '';
    }
  });

  test('a site that counts on scroll fires the impression once the widget comes into view, once', async () => {
    const { boot } = await loadEmbed();
    const { beacons } = adServer({ type: 'default', columns: 3, count_on_scroll: true });
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    boot(null);
    const el = document.getElementById('c');
    await vi.waitFor(() => expect(el?.dataset.adpState).toBe('done'));
    await settle();
    // drawn below the fold: nothing counted yet
    expect(beacons).toEqual([]);
    const io = FakeObserver.all.find((o) => o.options.threshold === 0);
    expect(io?.targets.size).toBe(3);
    io?.report(0);
    expect(beacons).toEqual([]);
    io?.report(0.1);
    expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`]);
    io?.report(1);
    expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`]);
  });

  test("a campaign counting on image load: the impression waits for its item's picture, and never comes if it fails", async () => {
    const { boot } = await loadEmbed();
    const beacons: string[] = [];
    let n = 0;
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        if (url.includes('/beacon/')) {
          beacons.push(url);
          return Promise.resolve(new Response(null, { status: 204 }));
        }
        n += 1;
        const items = makeItems(3, n * 10).map((it, i) => (i === 1 ? { ...it, on_image_load: true } : it));
        return respond({
          widget: { _id: 'w', settings: { type: 'default', columns: 3 } },
          items,
          impression_url: `${ORIGIN}/beacon/imp/${n}`,
          viewable_url: `${ORIGIN}/beacon/view/${n}`,
        });
      }),
    );
    document.body.innerHTML = '<div id="a" data-adp-widget="w"></div><div id="b" data-adp-widget="w"></div>';
    boot(null);
    const imagesOf = (id: string) =>
      Array.from(document.getElementById(id)?.shadowRoot?.querySelectorAll('img') ?? []);
    await vi.waitFor(() => expect(imagesOf('a')).toHaveLength(3));
    await vi.waitFor(() => expect(imagesOf('b')).toHaveLength(3));
    await settle();
    // drawn, but the picture of the flagged item has not loaded: nothing counted
    expect(beacons).toEqual([]);
    // the other items' pictures do not matter
    imagesOf('a')[0]?.dispatchEvent(new Event('load'));
    expect(beacons).toEqual([]);
    // no view is watched for before the impression (the server counts a view only after it)
    const viewWatchers = () =>
      FakeObserver.all.filter((o) => o.options.threshold !== 0 && o.targets.size > 0);
    const before = viewWatchers().length;
    imagesOf('a')[1]?.dispatchEvent(new Event('load'));
    expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`]);
    expect(viewWatchers().length).toBe(before + 1);
    // the other widget's picture fails: its answer stays uncounted
    imagesOf('b')[1]?.dispatchEvent(new Event('error'));
    await settle();
    expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`]);
  });

  test('noindex: every link is nofollow and the widget is kept out of search snippets', async () => {
    const { boot } = await loadEmbed();
    adServer({ type: 'default', columns: 3, noindex: true });
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    boot(null);
    const el = document.getElementById('c');
    await vi.waitFor(() => expect(el?.dataset.adpState).toBe('done'));
    expect(el?.hasAttribute('data-nosnippet')).toBe(true);
    const rels = Array.from(el?.shadowRoot?.querySelectorAll('a.i') ?? []).map((a) => a.getAttribute('rel'));
    expect(rels).toEqual([
      'sponsored nofollow noopener',
      'sponsored nofollow noopener',
      'sponsored nofollow noopener',
    ]);
    // the impression fires when drawn, as without count_on_scroll
    await settle();
    expect(FakeObserver.all.some((o) => o.options.threshold === 0)).toBe(false);
  });

  test('a failing beacon does not disturb the page', async () => {
    const { boot } = await loadEmbed();
    const fetchMock = vi.fn((url: string) =>
      url.includes('/beacon/')
        ? Promise.reject(new TypeError('blocked by an ad blocker'))
        : respond({
            widget: { _id: 'w', settings: {} },
            items: makeItems(1),
            impression_url: `${ORIGIN}/beacon/imp`,
            viewable_url: null,
          }),
    );
    vi.stubGlobal('fetch', fetchMock);
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    boot(null);
    const el = document.getElementById('c');
    await vi.waitFor(() => expect(el?.dataset.adpState).toBe('done'));
    await settle();
    expect(fetchMock).toHaveBeenCalledWith(`${ORIGIN}/beacon/imp`, expect.anything());
    expect(warn).not.toHaveBeenCalled();
    // No viewable URL, nothing to watch.
    expect(FakeObserver.viewability()).toHaveLength(0);
  });

  test('viewable fires once, after one continuous second at 50 % in view', async () => {
    const { boot } = await loadEmbed();
    const { beacons } = adServer({ type: 'default', columns: 3 });
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    boot(null);
    await vi.waitFor(() => expect(FakeObserver.viewability()).toHaveLength(1));
    vi.useFakeTimers();
    const io = FakeObserver.viewability()[0]!;
    expect(io.targets.size).toBe(3);
    io.report(0.3);
    vi.advanceTimersByTime(5000);
    expect(beacons.filter((b) => b.includes('/view/'))).toEqual([]);
    io.report(0.6);
    vi.advanceTimersByTime(999);
    // Dropping below 50 % restarts the second.
    io.report(0.2);
    io.report(0.5);
    vi.advanceTimersByTime(999);
    expect(beacons.filter((b) => b.includes('/view/'))).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(beacons.filter((b) => b.includes('/view/'))).toEqual([`${ORIGIN}/beacon/view/1`]);
    io.report(0);
    io.report(1);
    vi.advanceTimersByTime(5000);
    expect(beacons.filter((b) => b.includes('/view/'))).toEqual([`${ORIGIN}/beacon/view/1`]);
  });

  test('an infinite widget asks /more at the end with the offset and fires the new answer’s beacons', async () => {
    const { boot } = await loadEmbed();
    const { fetchMock, beacons } = adServer({ type: 'default', is_infinite: true, columns: 3 });
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    boot(null);
    const el = document.getElementById('c');
    await vi.waitFor(() => expect(FakeObserver.sentinels()).toHaveLength(1));
    FakeObserver.sentinels()[0]?.report(1);
    await vi.waitFor(() => expect(titles(el)).toHaveLength(5));
    expect(fetchMock).toHaveBeenCalledWith(
      `${location.origin}/serve/widgets/w/more?offset=3&url=${encodeURIComponent(location.href)}`,
      expect.objectContaining({ credentials: 'include' }),
    );
    expect(beacons).toEqual([`${ORIGIN}/beacon/imp/1`, `${ORIGIN}/beacon/imp/2`]);
    // Each answer is watched on its own cards.
    const [first, second] = FakeObserver.viewability();
    expect([first?.targets.size, second?.targets.size]).toEqual([3, 2]);
    vi.useFakeTimers();
    second?.report(1);
    vi.advanceTimersByTime(1000);
    expect(beacons.at(-1)).toBe(`${ORIGIN}/beacon/view/2`);
    vi.useRealTimers();
    // The next offset counts the loaded items too; the empty answer ends loading.
    FakeObserver.sentinels()[0]?.report(1);
    await vi.waitFor(() =>
      expect(fetchMock).toHaveBeenCalledWith(expect.stringContaining('/more?offset=5&'), expect.anything()),
    );
  });

  test('a slider asks /more when it runs out', async () => {
    const { boot } = await loadEmbed();
    const { fetchMock } = adServer({ type: 'slide', columns: 2 });
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    boot(null);
    const el = document.getElementById('c');
    await vi.waitFor(() => expect(titles(el)).toHaveLength(3));
    el?.shadowRoot?.querySelector<HTMLButtonElement>('button[aria-label="Next"]')?.click();
    await vi.waitFor(() => expect(titles(el)).toHaveLength(5));
    expect(fetchMock).toHaveBeenCalledWith(
      expect.stringContaining('/serve/widgets/w/more?offset=3&url='),
      expect.anything(),
    );
  });

  test('SPA navigation requests every widget again for the new URL, keeping the page’s own handlers', async () => {
    const start = location.href;
    // The page's router wraps pushState too (an earlier test of this file may already have wrapped it for the embed).
    const routed: string[] = [];
    const pagePush = history.pushState;
    history.pushState = function (this: History, ...args: Parameters<History['pushState']>) {
      routed.push(String(args[2]));
      return pagePush.apply(this, args);
    };
    const popped = vi.fn();
    window.addEventListener('popstate', popped);
    try {
      const { boot } = await loadEmbed();
      const { fetchMock, beacons } = adServer({ type: 'default', columns: 3 });
      document.body.innerHTML =
        '<div id="a" data-adp-widget="w"></div><div id="b" data-adp-widget="w"></div>';
      boot(null);
      // A second copy of the script on the same page wraps nothing twice.
      boot(null);
      const a = document.getElementById('a');
      const b = document.getElementById('b');
      await vi.waitFor(() => expect([a, b].map((el) => el?.dataset.adpState)).toEqual(['done', 'done']));
      const serve = () => fetchMock.mock.calls.map(([u]) => u).filter((u) => u.includes('/serve/'));
      expect(serve()).toHaveLength(2);
      // Only the state, not the page, changes: nothing to do.
      history.replaceState({ x: 1 }, '');
      history.pushState(null, '', '#comments');
      await settle();
      expect(serve()).toHaveLength(2);

      history.pushState({}, '', '/news/2');
      expect(routed).toEqual(['#comments', '/news/2']);
      await vi.waitFor(() => expect(serve()).toHaveLength(4));
      const next = encodeURIComponent(`${location.origin}/news/2`);
      expect(serve().slice(2)).toEqual([
        `${location.origin}/serve/widgets/w?url=${next}`,
        `${location.origin}/serve/widgets/w?url=${next}`,
      ]);
      // Redrawn with the new answers, whose impressions fire too.
      await vi.waitFor(() => expect([titles(a)[0], titles(b)[0]].sort()).toEqual(['Title 30', 'Title 40']));
      expect(beacons.filter((u) => u.includes('/imp/'))).toHaveLength(4);

      // Back: popstate reaches the page and the widgets follow; a widget the page removed is dropped.
      b?.remove();
      history.back();
      await vi.waitFor(() => expect(popped).toHaveBeenCalled());
      await vi.waitFor(() => expect(serve()).toHaveLength(5));
      expect(serve()[4]).toBe(`${location.origin}/serve/widgets/w?url=${encodeURIComponent(location.href)}`);
    } finally {
      window.removeEventListener('popstate', popped);
      history.replaceState(null, '', start);
    }
  });
});

describe('click beacons', () => {
  const T = 'AbCd_-12';
  const answer = {
    widget: { _id: 'w', settings: { type: 'default', columns: 3 } },
    items: [
      {
        id: 'm41',
        title: 'Own article',
        text: '',
        image: '',
        url: 'https://mag.example/a',
        sponsored: false,
      },
      {
        id: 'b7',
        title: 'Criteo zone',
        text: '',
        image: '',
        url: `${ORIGIN}/click/${T}.1`,
        sponsored: true,
        html: '<p>ad</p>',
      },
      { id: 'b8', title: 'Ad', text: '', image: '', url: `${ORIGIN}/click/${T}.2`, sponsored: true },
    ],
    impression_url: `${ORIGIN}/serve/i/${T}`,
    viewable_url: `${ORIGIN}/serve/v/${T}`,
  };

  test('openBeacon: own articles through /serve/m, markup through /serve/c, nothing for plain ads', async () => {
    const { openBeacon } = await loadEmbed();
    const [own, markup, ad] = answer.items as [WidgetItem, WidgetItem, WidgetItem];
    expect(openBeacon(own, answer.impression_url)).toBe(`${ORIGIN}/serve/m/${T}.41`);
    expect(openBeacon(markup, answer.impression_url)).toBe(`${ORIGIN}/serve/c/${T}.1`);
    expect(openBeacon(ad, answer.impression_url)).toBeNull();
    // an answer without beacons, or another site's article (no m<id>), has none
    expect(openBeacon(own, null)).toBeNull();
    expect(openBeacon({ ...own, id: 'p3' }, answer.impression_url)).toBeNull();
  });

  test("a click on the site's own article fires its beacon and keeps the article's link", async () => {
    const { boot } = await loadEmbed();
    const fired: string[] = [];
    vi.stubGlobal('fetch', (url: string) => {
      if (url.includes('/serve/widgets/')) return respond(answer);
      fired.push(url);
      return Promise.resolve(new Response(null, { status: 204 }));
    });
    document.body.innerHTML = '<div id="c" data-adp-widget="w"></div>';
    const script = document.createElement('script');
    script.src = `${ORIGIN}/widget.js`;
    boot(script);
    const el = document.getElementById('c');
    await vi.waitFor(() => expect(el?.dataset.adpState).toBe('done'));
    const card = el?.shadowRoot?.querySelector<HTMLAnchorElement>('a.i');
    expect(card?.href).toBe('https://mag.example/a');
    card?.addEventListener('click', (e) => e.preventDefault());
    card?.click();
    expect(fired).toContain(`${ORIGIN}/serve/m/${T}.41`);
  });
});

describe('what is counted, and where more comes from', () => {
  const answer = (items: WidgetItem[], settings: Record<string, unknown> = {}) => ({
    widget: { _id: 'w', settings: { type: 'default', columns: 3, ...settings } },
    items,
    impression_url: `${ORIGIN}/beacon/imp/1`,
    viewable_url: null,
  });
  /** fetch that answers the widget with `body`, records every URL, and answers beacons with 204. */
  function server(body: unknown) {
    const urls: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn((url: string) => {
        urls.push(url);
        if (url.includes('/more')) return respond({ items: [] });
        return url.includes('/serve/widgets/')
          ? respond(body)
          : Promise.resolve(new Response(null, { status: 204 }));
      }),
    );
    return urls;
  }
  const mountIn = async (
    boot: (s: HTMLScriptElement | null) => void,
    html = '<div id="c" data-adp-widget="w"></div>',
  ) => {
    document.body.innerHTML = html;
    boot(null);
    const el = document.getElementById('c') as HTMLElement;
    await vi.waitFor(() => expect(el.dataset.adpState).toBe('done'));
    await settle();
    return el;
  };

  test('a widget in a hidden container counts its impression only once it is shown', async () => {
    let visible = false;
    let resized: () => void = () => {};
    // jsdom lays nothing out: the browser's answer is stubbed
    Object.defineProperty(HTMLElement.prototype, 'checkVisibility', {
      configurable: true,
      value: () => visible,
    });
    onTestFinished(() => {
      delete (HTMLElement.prototype as { checkVisibility?: unknown }).checkVisibility;
    });
    vi.stubGlobal(
      'ResizeObserver',
      class {
        constructor(cb: () => void) {
          resized = cb;
        }
        observe() {}
        disconnect() {
          resized = () => {};
        }
      },
    );
    const { boot } = await loadEmbed();
    const urls = server(answer(makeItems(2)));
    await mountIn(boot);
    expect(urls.filter((u) => u.includes('/beacon/'))).toEqual([]);
    resized();
    expect(urls.filter((u) => u.includes('/beacon/'))).toEqual([]);
    visible = true;
    resized();
    resized();
    expect(urls.filter((u) => u.includes('/beacon/'))).toEqual([`${ORIGIN}/beacon/imp/1`]);
  });

  test("a partner's ad calls its impression trackers with the impression and its click trackers on the click", async () => {
    const { boot } = await loadEmbed();
    const [plain, dsp] = makeItems(2);
    const urls = server(
      answer([
        plain!,
        {
          ...dsp!,
          imptrackers: ['https://dsp.example/imp?a=1', 'javascript:alert(1)'],
          clicktrackers: ['https://dsp.example/click?a=1'],
        },
      ]),
    );
    const el = await mountIn(boot);
    expect(urls.filter((u) => !u.includes('/serve/widgets/'))).toEqual([
      `${ORIGIN}/beacon/imp/1`,
      'https://dsp.example/imp?a=1',
    ]);
    const links = el.shadowRoot?.querySelectorAll<HTMLAnchorElement>('a.i') ?? [];
    for (const a of Array.from(links)) a.addEventListener('click', (e) => e.preventDefault());
    links[0]?.click();
    expect(urls).not.toContain('https://dsp.example/click?a=1');
    links[1]?.click();
    expect(urls.filter((u) => u === 'https://dsp.example/click?a=1')).toHaveLength(1);
  });

  test('loading more names the creatives already shown, so the next ones are others', async () => {
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    FakeObserver.all = [];
    const { boot } = await loadEmbed();
    const items = makeItems(3).map((it, i) => ({ ...it, id: `b${40 + i}` }));
    const urls = server(
      answer([...items, { ...makeItems(1, 9)[0]!, id: 'm7', sponsored: false }], { is_infinite: true }),
    );
    await mountIn(boot);
    FakeObserver.sentinels()[0]?.report(1);
    await vi.waitFor(() => expect(urls.some((u) => u.includes('/more'))).toBe(true));
    expect(urls.find((u) => u.includes('/more'))).toContain('/more?offset=4&seen=40,41,42&url=');
  });
});
