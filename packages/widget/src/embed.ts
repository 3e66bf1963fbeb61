import type { WidgetItem, WidgetSettings } from '@adp/contract';
import { renderWidget } from './render.ts';

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

interface ServeResponse {
  widget: { _id: string; settings: Partial<WidgetSettings> };
  items: WidgetItem[];
}

const warn = (id: string, error: unknown) => console.warn(`[adp-widget] widget ${id} not shown:`, error);

async function getJson(url: string): Promise<unknown> {
  const res = await fetch(url, { headers: { Accept: 'application/json' } });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  return res.json();
}

// The server owns the shape; this only drops what would break rendering.
const isItem = (v: unknown): v is WidgetItem =>
  !!v && typeof v === 'object' && typeof (v as WidgetItem).title === 'string';

/** Fetches one widget's settings and items and renders it into `el`; never throws. */
export async function mount(el: HTMLElement, origin: string): Promise<void> {
  const id = el.dataset.adpWidget;
  if (!id || el.dataset.adpState) return;
  el.dataset.adpState = 'loading';
  const base = `${origin}/serve/widgets/${encodeURIComponent(id)}`;
  try {
    const data = (await getJson(base)) as Partial<ServeResponse> | null;
    const settings = data?.widget?.settings;
    if (!settings || typeof settings !== 'object' || !Array.isArray(data?.items)) {
      throw new Error('unexpected response');
    }
    const items = data.items.filter(isItem);
    let offset = items.length;
    renderWidget(el, settings, items, {
      id,
      logoUrl: `${origin}/`,
      onLoadMore: async () => {
        try {
          const more = (await getJson(`${base}/more?offset=${offset}`)) as { items?: unknown } | unknown[];
          const list = (
            Array.isArray(more) ? more : Array.isArray(more?.items) ? more.items : []
          ) as unknown[];
          offset += list.length;
          return list.filter(isItem);
        } catch (error) {
          warn(id, error);
          return [];
        }
      },
    });
    el.dataset.adpState = 'done';
  } catch (error) {
    el.dataset.adpState = 'error';
    el.shadowRoot?.replaceChildren();
    warn(id, error);
  }
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
