import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
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
    expect(fetchMock).toHaveBeenCalledWith(`${ORIGIN}/serve/widgets/w1`, expect.anything());
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
      `${location.origin}/serve/widgets/w3/more?offset=3`,
      expect.anything(),
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
