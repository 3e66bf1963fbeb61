import type { WidgetItem, WidgetSettings } from '@adp/contract';
import { servingOrigin } from '../../../lib/url.ts';

export interface AdpWidgetHandle {
  update(settings: Partial<WidgetSettings>, items: WidgetItem[]): void;
  destroy(): void;
}
export interface AdpWidgetApi {
  version: string;
  render(
    host: HTMLElement,
    settings: Partial<WidgetSettings>,
    items: WidgetItem[],
    opts?: { storage?: Storage | null; onLoadMore?: () => Promise<WidgetItem[]> },
  ): AdpWidgetHandle;
}

declare global {
  interface Window {
    AdpWidget?: AdpWidgetApi;
  }
}

export const EMBED_SCRIPT_PATH = '/widget.js';
let loading: Promise<AdpWidgetApi> | null = null;

/** Loads the publishers' embed script once per page; the preview renders with exactly that script. */
export function loadEmbedScript(): Promise<AdpWidgetApi> {
  if (window.AdpWidget) return Promise.resolve(window.AdpWidget);
  if (!loading) {
    loading = new Promise<AdpWidgetApi>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = EMBED_SCRIPT_PATH;
      script.async = true;
      script.dataset.adpPreview = 'true';
      script.onload = () =>
        window.AdpWidget ? resolve(window.AdpWidget) : reject(new Error('no AdpWidget'));
      script.onerror = () => reject(new Error(`${EMBED_SCRIPT_PATH} did not load`));
      document.head.append(script);
    }).catch((error: unknown) => {
      loading = null;
      throw error;
    });
  }
  return loading;
}

/** What publishers paste: the container and the script from this ad server. */
export function embedCode(widgetId: string, origin = servingOrigin()): string {
  return `<div data-adp-widget="${widgetId}"></div><script async src="${origin}${EMBED_SCRIPT_PATH}"></script>`;
}
