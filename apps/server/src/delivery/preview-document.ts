import type { WidgetItem, WidgetSettings } from '@adp/contract';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A standalone page that renders a widget with the real embed script. The data travels as a JSON
 * block (not executed) and /widget-preview.js hands it to the script, so the page runs under the
 * same strict Content-Security-Policy as everything else.
 */
export function previewDocument(opts: {
  settings: WidgetSettings;
  items: WidgetItem[];
  title: string;
  scriptUrl: string;
  /** The page's language (`<html lang>`), which the embed script's "Ad" label follows. */
  lang?: string;
}) {
  const data = JSON.stringify({ settings: opts.settings, items: opts.items }).replace(/</g, '\\u003c');
  const lang = opts.lang && /^[a-z]{2,3}(-[A-Za-z0-9]{2,8})*$/.test(opts.lang) ? ` lang="${opts.lang}"` : '';
  return `<!doctype html><html${lang}><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${esc(opts.title || 'Widget preview')}</title>
<style>body{margin:0;padding:16px;font-family:system-ui,sans-serif;background:#fff}</style></head>
<body><div id="adp-preview"></div>
<script type="application/json" id="adp-preview-data">${data}</script>
<script src="${esc(opts.scriptUrl)}"></script><script src="/widget-preview.js"></script></body></html>`;
}

/** Reads the JSON block and renders it; served as /widget-preview.js. */
export const previewBootstrap = `(function(){var d=document.getElementById('adp-preview-data');var h=document.getElementById('adp-preview');
if(!d||!h||!window.AdpWidget)return;var data=JSON.parse(d.textContent||'{}');window.AdpWidget.render(h,data.settings,data.items,{});})();`;
