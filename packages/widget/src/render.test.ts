import type { WidgetItem, WidgetSettings } from '@adp/contract';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { adLabel, renderWidget, safeUrl, truncate } from './render.ts';
import { makeItems, newHost, shadowOf } from './test-items.ts';

afterEach(() => {
  document.body.replaceChildren();
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

const cards = (host: HTMLElement) => Array.from(shadowOf(host).querySelectorAll<HTMLAnchorElement>('a.i'));

describe('structure by type', () => {
  test('default renders a grid of rows × columns items with the column settings', () => {
    const host = newHost();
    renderWidget(host, { type: 'default', columns: 3, rows: 2, column_width: 150 }, makeItems(10));
    const root = shadowOf(host);
    const grid = root.querySelector<HTMLElement>('.w > .g');
    expect(grid).not.toBeNull();
    expect(grid?.style.getPropertyValue('--c')).toBe('3');
    expect(root.querySelector<HTMLElement>('.w')?.style.getPropertyValue('--cw')).toBe('150px');
    expect(cards(host).map((a) => a.querySelector('.t')?.textContent)).toEqual([
      'Title 0',
      'Title 1',
      'Title 2',
      'Title 3',
      'Title 4',
      'Title 5',
    ]);
  });

  test('a card shows image, title, text and the sponsored line', () => {
    const host = newHost();
    renderWidget(host, {}, [{ ...makeItems(1)[0]!, brand: 'Acme' }]);
    const [card] = cards(host);
    expect(card?.querySelector('img')?.getAttribute('src')).toBe('https://cdn.example.com/0.jpg');
    expect(card?.querySelector('.x')?.textContent).toBe('Text of item 0');
    expect(card?.querySelector('.s')?.textContent).toBe('Acme');
    expect(card?.querySelector('.ad')?.textContent).toBe('Ad');
  });

  test('position_fixed is a fixed panel in its corner that the close button removes', () => {
    const host = newHost();
    renderWidget(host, { type: 'position_fixed', position: 'top-left', width: 300 }, makeItems(2));
    const panel = shadowOf(host).querySelector<HTMLElement>('.w');
    expect(panel?.classList.contains('pf')).toBe(true);
    expect(panel?.classList.contains('p-top-left')).toBe(true);
    expect(panel?.style.getPropertyValue('--w')).toBe('300px');
    shadowOf(host).querySelector<HTMLButtonElement>('button[aria-label="Close"]')?.click();
    expect(shadowOf(host).querySelector('.w')).toBeNull();
  });

  test('builder renders each block by its type and format', () => {
    const host = newHost();
    renderWidget(
      host,
      {
        type: 'builder',
        columns: 3,
        blocks: [
          { type: 'native', format: 0, items: 3 },
          { type: 'native', format: 2, items: 3 },
          { type: 'amp', format: 1, items: 2 },
          { type: '3_2_1', format: 0, items: 6 },
          { type: 'native', format: 7, items: 2 },
          { type: 'native', format: 5, items: 1 },
        ],
      },
      makeItems(30),
    );
    const blocks = Array.from(shadowOf(host).querySelectorAll<HTMLElement>('.blk'));
    expect(blocks.map((b) => `${b.dataset.type}/${b.dataset.format}`)).toEqual([
      'native/0',
      'native/2',
      'amp/1',
      '3_2_1/0',
      'native/7',
      'native/5',
    ]);
    const [bigList, threeCols, amp, rows321, scroller, textOnly] = blocks;
    // Format 0: one big card, then the rest as a list.
    expect(bigList?.querySelectorAll('.hero')).toHaveLength(1);
    expect(bigList?.querySelectorAll('.g.l a.i')).toHaveLength(2);
    expect(threeCols?.querySelector<HTMLElement>('.g')?.style.getPropertyValue('--c')).toBe('3');
    expect(amp?.querySelectorAll('.g.l a.i')).toHaveLength(2);
    const rows = Array.from(rows321?.querySelectorAll<HTMLElement>('.g') ?? []);
    expect(rows.map((r) => r.querySelectorAll('a.i').length)).toEqual([3, 2, 1]);
    expect(scroller?.querySelector('.hs')).not.toBeNull();
    expect(textOnly?.querySelector('.g.to')).not.toBeNull();
    // Blocks take consecutive items.
    expect(threeCols?.querySelector('.t')?.textContent).toBe('Title 3');
  });
});

describe('text, logo and links', () => {
  test('text is cut to text_max_length plus the suffix', () => {
    const host = newHost();
    renderWidget(host, { text_max_length: 4, truncation_suffix: '...' }, makeItems(1));
    expect(cards(host)[0]?.querySelector('.x')?.textContent).toBe('Text...');
  });

  test('no truncation when text_max_length is null', () => {
    const host = newHost();
    const long = 'x'.repeat(400);
    renderWidget(host, { text_max_length: null }, [{ ...makeItems(1)[0]!, text: long }]);
    expect(cards(host)[0]?.querySelector('.x')?.textContent).toBe(long);
  });

  test('truncation counts characters, not UTF-16 units, and leaves short text alone', () => {
    expect(truncate('😀😀😀', 2, '…')).toBe('😀😀…');
    expect(truncate('short', 10, '…')).toBe('short');
  });

  test('the logo shows unless hide_logo', () => {
    const shown = newHost();
    renderWidget(shown, { hide_logo: false }, makeItems(1), { logoUrl: 'https://ads.example.com/' });
    const logo = shadowOf(shown).querySelector<HTMLAnchorElement>('a.lg');
    expect(logo?.textContent).toBe('Ads by AdPlatform');
    expect(logo?.href).toBe('https://ads.example.com/');
    const hidden = newHost();
    renderWidget(hidden, { hide_logo: true }, makeItems(1));
    expect(shadowOf(hidden).querySelector('a.lg')).toBeNull();
    // nothing to show (no fill, a bot): nothing in the page, not a lone logo
    const empty = newHost();
    renderWidget(empty, { hide_logo: false }, [], { logoUrl: 'https://ads.example.com/' });
    expect(shadowOf(empty).querySelector('a.lg')).toBeNull();
  });

  test("a widget's marketplace URL is where the logo leads; a non-http one is ignored", () => {
    const market = newHost();
    renderWidget(
      market,
      { marketplace_url: 'https://market.example/buy' } as Partial<WidgetSettings>,
      makeItems(1),
      {
        logoUrl: 'https://ads.example.com/',
      },
    );
    expect(shadowOf(market).querySelector<HTMLAnchorElement>('a.lg')?.href).toBe(
      'https://market.example/buy',
    );
    expect(shadowOf(market).querySelector<HTMLAnchorElement>('a.lg')?.rel).toBe('sponsored noopener');
    const bad = newHost();
    renderWidget(bad, { marketplace_url: 'javascript:alert(1)' } as Partial<WidgetSettings>, makeItems(1), {
      logoUrl: 'https://ads.example.com/',
    });
    expect(shadowOf(bad).querySelector<HTMLAnchorElement>('a.lg')?.href).toBe('https://ads.example.com/');
  });

  test('sponsored links are rel="sponsored noopener"; open_in_new_tab sets target _blank', () => {
    const host = newHost();
    renderWidget(host, { open_in_new_tab: true }, makeItems(1));
    expect(cards(host)[0]?.getAttribute('target')).toBe('_blank');
    expect(cards(host)[0]?.getAttribute('rel')).toBe('sponsored noopener');
    const same = newHost();
    renderWidget(same, { open_in_new_tab: false }, makeItems(1));
    expect(cards(same)[0]?.hasAttribute('target')).toBe(false);
    expect(cards(same)[0]?.getAttribute('rel')).toBe('sponsored noopener');
    const own = newHost();
    renderWidget(own, { open_in_new_tab: true }, [{ ...makeItems(1)[0]!, sponsored: false }]);
    expect(cards(own)[0]?.getAttribute('rel')).toBe('noopener');
  });

  test('noindex: every link nofollow, the logo too; the host out of snippets, a publisher’s own mark kept', () => {
    const settings = { noindex: true, open_in_new_tab: false } as Partial<WidgetSettings>;
    const host = newHost();
    const items = [makeItems(1)[0]!, { ...makeItems(1, 1)[0]!, sponsored: false }];
    const handle = renderWidget(host, settings, items, { logoUrl: 'https://ads.example.com/' });
    expect(cards(host).map((a) => a.getAttribute('rel'))).toEqual([
      'sponsored nofollow noopener',
      'nofollow',
    ]);
    expect(shadowOf(host).querySelector('a.lg')?.getAttribute('rel')).toBe('nofollow noopener');
    expect(host.hasAttribute('data-nosnippet')).toBe(true);
    handle.update({ open_in_new_tab: false }, items);
    expect(host.hasAttribute('data-nosnippet')).toBe(false);
    expect(cards(host)[1]?.hasAttribute('rel')).toBe(false);
    // the publisher marked the container itself: the widget leaves the mark alone
    const marked = newHost();
    marked.setAttribute('data-nosnippet', '');
    const other = renderWidget(marked, settings, items);
    other.update({}, items);
    other.destroy();
    expect(marked.hasAttribute('data-nosnippet')).toBe(true);
  });

  test('each sponsored item carries a visible ad label in the widget or page language', () => {
    const label = (host: HTMLElement) => cards(host).map((a) => a.querySelector('.ad')?.textContent ?? null);
    const en = newHost();
    renderWidget(en, {}, [...makeItems(2), { ...makeItems(1, 2)[0]!, sponsored: false }]);
    expect(label(en)).toEqual(['Ad', 'Ad', null]);
    // The page says German.
    document.documentElement.lang = 'de-AT';
    try {
      const de = newHost();
      renderWidget(de, {}, makeItems(1));
      expect(label(de)).toEqual(['Anzeige']);
      // and so does the logo link
      expect(shadowOf(de).querySelector('a.lg')?.textContent).toBe('Anzeigen von AdPlatform');
      // The widget's own language wins over the page's.
      const ru = newHost();
      renderWidget(ru, { language: 'ru' } as Partial<WidgetSettings>, makeItems(1));
      expect(label(ru)).toEqual(['Реклама']);
    } finally {
      document.documentElement.lang = '';
    }
    expect([adLabel('uk'), adLabel('fr-CA'), adLabel('pt-BR'), adLabel('xx'), adLabel(undefined)]).toEqual([
      'Реклама',
      'Annonce',
      'Anúncio',
      'Ad',
      'Ad',
    ]);
  });

  test('onShow reports the drawn cards with their items once they are in the page', () => {
    const host = newHost();
    const seen: [string[], boolean[]][] = [];
    const items = makeItems(5);
    renderWidget(host, { columns: 2 }, items, {
      onShow: (list, els) => seen.push([list.map((i) => i.id), els.map((el) => el.isConnected)]),
    });
    expect(seen).toEqual([
      [
        ['i0', 'i1'],
        [true, true],
      ],
    ]);
  });

  test('clickUrl replaces the item url', () => {
    const host = newHost();
    renderWidget(host, {}, makeItems(1), { clickUrl: (item) => `https://ads.example.com/click/${item.id}` });
    expect(cards(host)[0]?.href).toBe('https://ads.example.com/click/i0');
  });

  test('autosize off gives fixed image boxes and the fixed height', () => {
    const host = newHost();
    renderWidget(host, { autosize: false, height: 250 }, makeItems(1));
    const w = shadowOf(host).querySelector<HTMLElement>('.w');
    expect(w?.classList.contains('fx')).toBe(true);
    expect(w?.style.height).toBe('250px');
  });

  test('width, font and colours arrive as custom properties; a bad colour falls back', () => {
    const host = newHost();
    renderWidget(host, { width: 600, font: 'Georgia;}', font_size: 18, title_color: 'red' }, makeItems(1));
    const w = shadowOf(host).querySelector<HTMLElement>('.w');
    expect(w?.style.getPropertyValue('--w')).toBe('600px');
    expect(w?.style.getPropertyValue('--f')).toBe('Georgia');
    expect(w?.style.getPropertyValue('--fs')).toBe('18px');
    expect(w?.style.getPropertyValue('--tc')).toBe('#222222');
  });
});

describe('isolation and hostile data', () => {
  test('styles live inside the shadow root, none in the page', () => {
    const host = newHost();
    renderWidget(host, {}, makeItems(2));
    const style = shadowOf(host).querySelector('style');
    expect(style?.textContent).toContain(':host{all:initial');
    expect(document.querySelectorAll('style')).toHaveLength(0);
    expect(host.children).toHaveLength(0);
  });

  test('item title and text with markup are rendered as text', () => {
    const host = newHost();
    const evil = '<img src=x onerror="window.__pwned=1">';
    renderWidget(host, {}, [{ ...makeItems(1)[0]!, title: evil, text: `<b>${evil}</b>` }]);
    const card = cards(host)[0];
    expect(card?.querySelector('.t')?.textContent).toBe(evil);
    expect(card?.querySelectorAll('img')).toHaveLength(1);
    expect(card?.querySelector('b')).toBeNull();
  });

  test('javascript: and data: URLs are refused for links and images', () => {
    const host = newHost();
    const item: WidgetItem = {
      ...makeItems(1)[0]!,
      url: 'javascript:alert(1)',
      image: 'data:image/svg+xml,<svg onload=alert(1)>',
    };
    renderWidget(host, {}, [item], { logoUrl: ' javascript:alert(2)' });
    const card = cards(host)[0];
    expect(card?.hasAttribute('href')).toBe(false);
    expect(card?.querySelector('img')).toBeNull();
    expect(shadowOf(host).querySelector('a.lg')?.hasAttribute('href')).toBe(false);
    expect(safeUrl('JavaScript:alert(1)')).toBeNull();
    expect(safeUrl('https://ok.example.com/a')).toBe('https://ok.example.com/a');
  });
});

describe('markup and video items', () => {
  test('advertiser markup renders in a sandboxed iframe, never in the page', () => {
    const host = newHost();
    const html = '<script>document.title="x"</script><div id="ad">ad</div>';
    renderWidget(host, {}, [{ ...makeItems(1)[0]!, html }]);
    const frame = cards(host)[0]?.querySelector('iframe');
    expect(frame?.getAttribute('sandbox')).toBe('allow-scripts allow-popups allow-popups-to-escape-sandbox');
    expect(frame?.getAttribute('srcdoc')).toBe(html);
    expect(shadowOf(host).querySelector('#ad')).toBeNull();
  });

  test('onOpen: a click on a card, and the first click into a markup frame (the page loses focus to it)', async () => {
    const host = newHost();
    const [ad, markup] = [makeItems(1)[0]!, { ...makeItems(1, 1)[0]!, html: '<p>ad</p>' }];
    const opened: string[] = [];
    const handle = renderWidget(host, { columns: 2 }, [ad, markup], { onOpen: (i) => opened.push(i.id) });
    const [card, frameCard] = cards(host);
    card?.addEventListener('click', (e) => e.preventDefault());
    card?.click();
    expect(opened).toEqual(['i0']);
    // the page loses focus to the frame: its item opened
    frameCard?.querySelector('iframe')?.focus();
    window.dispatchEvent(new Event('blur'));
    await new Promise((r) => setTimeout(r, 0));
    expect(opened).toEqual(['i0', 'i1']);
    // destroyed: no more reports
    handle.destroy();
    window.dispatchEvent(new Event('blur'));
    await new Promise((r) => setTimeout(r, 0));
    expect(opened).toEqual(['i0', 'i1']);
  });

  test('a video item plays its video in place of the image', () => {
    const host = newHost();
    renderWidget(host, {}, [{ ...makeItems(1)[0]!, video: 'https://cdn.example/v.mp4' }]);
    const video = cards(host)[0]?.querySelector('video');
    expect(video?.getAttribute('src')).toBe('https://cdn.example/v.mp4');
    expect(video?.muted).toBe(true);
  });
});

describe('handle', () => {
  test('update re-renders with new settings and destroy empties the shadow root', () => {
    const host = newHost();
    const handle = renderWidget(host, { columns: 2 }, makeItems(4));
    expect(cards(host)).toHaveLength(2);
    handle.update({ columns: 4 }, makeItems(4));
    expect(cards(host)).toHaveLength(4);
    expect(shadowOf(host).querySelectorAll('style')).toHaveLength(1);
    handle.destroy();
    expect(shadowOf(host).childNodes).toHaveLength(0);
  });

  test('unvalidated preview settings fall back to defaults instead of breaking the layout', () => {
    const host = newHost();
    const settings = {
      columns: 0,
      rows: Number.NaN,
      blocks: undefined,
    } as unknown as Partial<WidgetSettings>;
    renderWidget(host, settings, makeItems(8));
    expect(cards(host)).toHaveLength(4);
  });

  test('rendering again into the same host reuses its shadow root', () => {
    const host = newHost();
    renderWidget(host, {}, makeItems(1)).destroy();
    expect(() => renderWidget(host, {}, makeItems(1))).not.toThrow();
    expect(cards(host)).toHaveLength(1);
  });
});

describe('infinite', () => {
  class FakeObserver {
    static all: FakeObserver[] = [];
    targets = new Set<Element>();
    constructor(private readonly callback: IntersectionObserverCallback) {
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
    /** The sentinel scrolls into view. */
    fire() {
      const entries = [...this.targets].map((target) => ({ target, isIntersecting: true }));
      if (entries.length) this.callback(entries as unknown as IntersectionObserverEntry[], this as never);
    }
  }

  const scrollToEnd = async (times: number) => {
    for (let i = 0; i < times; i++) {
      for (const o of FakeObserver.all) o.fire();
      await new Promise((r) => setTimeout(r, 0));
    }
  };

  test('loads more at the sentinel, at most load_limit times', async () => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const host = newHost();
    let offset = 4;
    const onLoadMore = vi.fn(async () => {
      const more = makeItems(2, offset);
      offset += 2;
      return more;
    });
    renderWidget(host, { type: 'infinite', columns: 2, load_limit: 3 }, makeItems(4), { onLoadMore });
    expect(cards(host)).toHaveLength(4);
    await scrollToEnd(6);
    expect(onLoadMore).toHaveBeenCalledTimes(3);
    expect(cards(host)).toHaveLength(10);
    expect(cards(host).at(-1)?.querySelector('.t')?.textContent).toBe('Title 9');
  });

  test('load_limit 0 keeps loading until an empty answer', async () => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const host = newHost();
    let left = 5;
    const onLoadMore = vi.fn(async () => (left-- > 0 ? makeItems(1, 10 + left) : []));
    renderWidget(host, { type: 'infinite', load_limit: 0 }, makeItems(1), { onLoadMore });
    await scrollToEnd(10);
    expect(onLoadMore).toHaveBeenCalledTimes(6);
    expect(cards(host)).toHaveLength(6);
  });

  test('is_infinite makes a grid widget infinite; onShow reports each loaded batch', async () => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const host = newHost();
    const batches: string[][] = [];
    const onLoadMore = vi.fn(async () => makeItems(2, 10));
    renderWidget(
      host,
      { type: 'default', is_infinite: true, load_limit: 1 } as Partial<WidgetSettings>,
      makeItems(2),
      {
        onLoadMore,
        onShow: (list) => batches.push(list.map((i) => i.id)),
      },
    );
    await scrollToEnd(3);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    expect(batches).toEqual([
      ['i0', 'i1'],
      ['i10', 'i11'],
    ]);
  });

  test('a builder infinity block loads into its own grid', async () => {
    FakeObserver.all = [];
    vi.stubGlobal('IntersectionObserver', FakeObserver);
    const host = newHost();
    const onLoadMore = vi.fn(async () => makeItems(2, 50));
    renderWidget(
      host,
      { type: 'builder', load_limit: 1, blocks: [{ type: 'infinity', format: 1, items: 2 }] },
      makeItems(2),
      {
        onLoadMore,
      },
    );
    await scrollToEnd(3);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    expect(shadowOf(host).querySelectorAll('.blk .g a.i')).toHaveLength(4);
  });
});

describe('interstitial', () => {
  test('shows on every N-th page view and hides after interstitial_time', () => {
    vi.useFakeTimers();
    const settings = { interstitial_time: 5000, interstitial_pages: 3 };
    const overlays: boolean[] = [];
    for (let view = 1; view <= 3; view++) {
      const host = newHost();
      renderWidget(host, settings, makeItems(4), { id: 'w1' });
      overlays.push(shadowOf(host).querySelector('.ov') !== null);
      if (view < 3) host.remove();
    }
    expect(overlays).toEqual([false, false, true]);
    expect(localStorage.getItem('adp-widget:w1:views')).toBe('3');
    const host = document.body.lastElementChild as HTMLElement;
    const overlay = shadowOf(host).querySelector('.ov');
    expect(overlay?.querySelector('.cd')?.textContent).toBe('5 s');
    vi.advanceTimersByTime(2000);
    expect(overlay?.querySelector('.cd')?.textContent).toBe('3 s');
    vi.advanceTimersByTime(3000);
    expect(shadowOf(host).querySelector('.ov')).toBeNull();
    // The widget itself stays.
    expect(shadowOf(host).querySelector('.w')).not.toBeNull();
  });

  test('the close button hides it at once; counters are per widget', () => {
    const storage = window.localStorage;
    storage.clear();
    const host = newHost();
    renderWidget(host, { interstitial_time: 1000, interstitial_pages: 1 }, makeItems(1), {
      id: 'a',
      storage,
    });
    shadowOf(host).querySelector<HTMLButtonElement>('.ov button[aria-label="Close"]')?.click();
    expect(shadowOf(host).querySelector('.ov')).toBeNull();
    expect(storage.getItem('adp-widget:a:views')).toBe('1');
    expect(storage.getItem('adp-widget:b:views')).toBeNull();
  });

  test('a modal: the focus moves to its close button, Tab stays inside, and comes back on close', () => {
    window.localStorage.clear();
    const outside = document.createElement('button');
    document.body.append(outside);
    outside.focus();
    const host = newHost();
    renderWidget(host, { interstitial_time: 5000, interstitial_pages: 1 }, makeItems(2), { id: 'focus' });
    const root = shadowOf(host);
    const stops = Array.from(root.querySelectorAll<HTMLElement>('.ov a[href], .ov button'));
    expect(stops).toHaveLength(3);
    expect(root.activeElement).toBe(stops[0]);
    const tab = (shiftKey = false) =>
      document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Tab', shiftKey, cancelable: true }));
    tab();
    tab();
    expect(root.activeElement).toBe(stops[2]);
    tab();
    expect(root.activeElement).toBe(stops[0]);
    tab(true);
    expect(root.activeElement).toBe(stops[2]);
    document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' }));
    expect(root.querySelector('.ov')).toBeNull();
    expect(document.activeElement).toBe(outside);
  });

  test('never shows when interstitial_time is 0', () => {
    const host = newHost();
    renderWidget(host, { interstitial_time: 0, interstitial_pages: 1 }, makeItems(1), { id: 'off' });
    expect(shadowOf(host).querySelector('.ov')).toBeNull();
  });
});
