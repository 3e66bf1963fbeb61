import type { WidgetSettings } from '@adp/contract';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import { renderWidget } from './render.ts';
import { makeItems, newHost, shadowOf } from './test-items.ts';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
  document.body.replaceChildren();
});

/** 6 items, 2 visible: positions 0..4. */
function slider(settings: Partial<WidgetSettings>) {
  const host = newHost();
  const handle = renderWidget(host, { type: 'slide', columns: 2, ...settings }, makeItems(6));
  const root = shadowOf(host);
  const track = root.querySelector<HTMLElement>('.tr')!;
  return {
    handle,
    root,
    track,
    index: () => Number(track.dataset.index),
    press: (label: 'Previous' | 'Next') =>
      root.querySelector<HTMLButtonElement>(`button[aria-label="${label}"]`)!.click(),
  };
}

describe('slider', () => {
  test('renders a track of slides with labelled prev/next buttons', () => {
    const s = slider({});
    expect(s.track.querySelectorAll('.sd')).toHaveLength(6);
    expect(s.root.querySelector('button[aria-label="Previous"]')).not.toBeNull();
    expect(s.root.querySelector('button[aria-label="Next"]')).not.toBeNull();
    expect(s.track.style.transform).toBe('translateX(-0%)');
  });

  test('is_slider turns another type into a carousel', () => {
    const host = newHost();
    renderWidget(host, { type: 'default', is_slider: true }, makeItems(6));
    expect(shadowOf(host).querySelector('.tr')).not.toBeNull();
  });

  test('the timer advances slides_per_move every slider_timer seconds', () => {
    const s = slider({ slider_timer: 3, slides_per_move: 2 });
    vi.advanceTimersByTime(2999);
    expect(s.index()).toBe(0);
    vi.advanceTimersByTime(1);
    expect(s.index()).toBe(2);
    expect(s.track.style.transform).toBe('translateX(-100%)');
    vi.advanceTimersByTime(3000);
    expect(s.index()).toBe(4);
  });

  test('slider_timer 0 never advances', () => {
    const s = slider({ slider_timer: 0 });
    vi.advanceTimersByTime(600_000);
    expect(s.index()).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('stops after slider_max_times automatic moves', () => {
    const s = slider({ slider_timer: 1, slider_max_times: 2 });
    vi.advanceTimersByTime(10_000);
    expect(s.index()).toBe(2);
    expect(vi.getTimerCount()).toBe(0);
  });

  test('slider_max_times 0 keeps going, rewinding at the end', () => {
    const s = slider({ slider_timer: 1, slider_max_times: 0, rewind: true });
    const seen: number[] = [];
    for (let i = 0; i < 6; i++) {
      vi.advanceTimersByTime(1000);
      seen.push(s.index());
    }
    expect(seen).toEqual([1, 2, 3, 4, 0, 1]);
  });

  test('without rewind it stops at the end and the buttons disable at the ends', () => {
    const s = slider({ slider_timer: 1, rewind: false });
    expect(s.root.querySelector<HTMLButtonElement>('button[aria-label="Previous"]')?.disabled).toBe(true);
    vi.advanceTimersByTime(10_000);
    expect(s.index()).toBe(4);
    expect(vi.getTimerCount()).toBe(0);
    expect(s.root.querySelector<HTMLButtonElement>('button[aria-label="Next"]')?.disabled).toBe(true);
    s.press('Next');
    expect(s.index()).toBe(4);
  });

  test('buttons move by slides_per_move and rewind wraps both ways', () => {
    const s = slider({ slides_per_move: 3, rewind: true });
    s.press('Previous');
    expect(s.index()).toBe(4);
    s.press('Next');
    expect(s.index()).toBe(0);
    s.press('Next');
    expect(s.index()).toBe(3);
    s.press('Next');
    expect(s.index()).toBe(4);
  });

  test('rtl slides the other way', () => {
    const s = slider({ direction: 'rtl' });
    expect(s.track.dir).toBe('rtl');
    expect(s.root.querySelector<HTMLElement>('.nv')?.dir).toBe('rtl');
    s.press('Next');
    expect(s.track.style.transform).toBe('translateX(50%)');
  });

  test('ttb slides vertically, rows per view, in a box of the given height', () => {
    const s = slider({ direction: 'ttb', rows: 3, height: 400 });
    const wrap = s.root.querySelector<HTMLElement>('.sl');
    expect(wrap?.classList.contains('ttb')).toBe(true);
    // Compact list cards, since the box height cuts vertical slides.
    expect(wrap?.classList.contains('l')).toBe(true);
    expect(wrap?.style.getPropertyValue('--h')).toBe('400px');
    expect(wrap?.style.getPropertyValue('--p')).toMatch(/^33\.33/);
    s.press('Next');
    expect(s.track.style.transform).toMatch(/^translateY\(-33\.33/);
  });

  test('update and destroy stop the timer', () => {
    const s = slider({ slider_timer: 1 });
    s.handle.update({ type: 'slide', slider_timer: 0 }, makeItems(6));
    expect(vi.getTimerCount()).toBe(0);
    const t = slider({ slider_timer: 1 });
    t.handle.destroy();
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('slider loading more', () => {
  const flush = async () => {
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };

  test('when the slider runs out it asks for more and slides on into them', async () => {
    const host = newHost();
    let from = 4;
    const onLoadMore = vi.fn(async () => {
      const more = from < 8 ? makeItems(2, from) : [];
      from += 2;
      return more;
    });
    const shown: string[][] = [];
    renderWidget(host, { type: 'slide', columns: 2, rewind: true }, makeItems(4), {
      onLoadMore,
      onShow: (items) => shown.push(items.map((i) => i.id)),
    });
    const root = shadowOf(host);
    const track = root.querySelector<HTMLElement>('.tr')!;
    const next = () => root.querySelector<HTMLButtonElement>('button[aria-label="Next"]')!.click();
    next();
    expect(onLoadMore).not.toHaveBeenCalled();
    next();
    // Position 2 of 4 items, 2 per view: the end.
    expect(track.dataset.index).toBe('2');
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    await flush();
    expect(track.querySelectorAll('.sd')).toHaveLength(6);
    expect(shown.at(-1)).toEqual(['i4', 'i5']);
    next();
    next();
    expect(track.dataset.index).toBe('4');
    await flush();
    expect(track.querySelectorAll('.sd')).toHaveLength(8);
    next();
    next();
    expect(track.dataset.index).toBe('6');
    // The empty answer ends loading; the next move rewinds as before.
    await flush();
    expect(onLoadMore).toHaveBeenCalledTimes(3);
    next();
    expect(track.dataset.index).toBe('0');
  });

  test('the timer waits at the end while more are on their way', async () => {
    const host = newHost();
    let resolve: (items: ReturnType<typeof makeItems>) => void = () => {};
    const onLoadMore = vi.fn(() => new Promise<ReturnType<typeof makeItems>>((r) => (resolve = r)));
    renderWidget(host, { type: 'slide', columns: 2, slider_timer: 1 }, makeItems(3), { onLoadMore });
    const track = shadowOf(host).querySelector<HTMLElement>('.tr')!;
    vi.advanceTimersByTime(1000);
    expect(track.dataset.index).toBe('1');
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(3000);
    expect(track.dataset.index).toBe('1');
    resolve(makeItems(2, 3));
    await flush();
    vi.advanceTimersByTime(1000);
    expect(track.dataset.index).toBe('2');
  });
  test('autoplay waits while the slider is out of view or the page hidden: no slides, no loads nobody sees', async () => {
    let report: (inView: boolean) => void = () => {};
    vi.stubGlobal(
      'IntersectionObserver',
      class {
        constructor(cb: IntersectionObserverCallback) {
          report = (inView) => cb([{ isIntersecting: inView } as IntersectionObserverEntry], this as never);
        }
        observe() {}
        disconnect() {}
      },
    );
    try {
      const host = newHost();
      const onLoadMore = vi.fn(async () => makeItems(2, 3));
      renderWidget(host, { type: 'slide', columns: 2, slider_timer: 1 }, makeItems(4), { onLoadMore });
      const track = shadowOf(host).querySelector<HTMLElement>('.tr')!;
      report(false);
      vi.advanceTimersByTime(60_000);
      expect([track.dataset.index, onLoadMore.mock.calls.length]).toEqual(['0', 0]);
      report(true);
      vi.advanceTimersByTime(1000);
      expect(track.dataset.index).toBe('1');
      const hidden = vi.spyOn(document, 'hidden', 'get').mockReturnValue(true);
      vi.advanceTimersByTime(10_000);
      expect(track.dataset.index).toBe('1');
      hidden.mockRestore();
      vi.advanceTimersByTime(1000);
      expect(track.dataset.index).toBe('2');
    } finally {
      vi.unstubAllGlobals();
    }
  });
});
