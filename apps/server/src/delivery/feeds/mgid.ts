import type { MgidConfig } from './config.ts';
import { cleanItems, listIn, readJson, records } from './items.ts';
import type { FeedAdapter } from './types.ts';

/**
 * MGID's JSON widget API. The request is the one public server-to-server integrations send
 * (`GET https://api.mgid.com/<widget id>?content_type=json&src_id=…&token=…&ua=…&ip=…`); `lu` (page
 * URL, as MGID's own widget loader names it) and `count` are our assumption. MGID publishes no
 * schema of the answer: we read a list of teasers, bare or under `teasers`, with `title` (or
 * `headline`), `description`, `url`, `image` (or `thumbnail`), `brand` (or `domain`) and, when
 * present, `cpc` in US dollars; links may be protocol-relative.
 */
export const mgid: FeedAdapter<MgidConfig> = {
  processor: 'mgid',
  buildRequest(config, request) {
    const url = new URL(encodeURIComponent(config.widget_id), config.endpoint);
    const q = url.searchParams;
    q.set('content_type', 'json');
    q.set('token', config.token);
    if (config.src_id) q.set('src_id', config.src_id);
    q.set('ip', request.ip);
    q.set('ua', request.userAgent);
    if (request.pageUrl) q.set('lu', request.pageUrl);
    if (request.language) q.set('lang', request.language);
    q.set('count', String(request.count));
    return { url: url.toString(), method: 'GET', headers: { accept: 'application/json' } };
  },
  parse(status, body) {
    const json = readJson(status, body);
    if (json === undefined) return [];
    return cleanItems(
      records(listIn(json, ['teasers', 'items'])).map((t) => ({
        title: t.title ?? t.headline,
        text: t.description ?? t.text,
        image: t.image ?? t.thumbnail ?? t.img,
        url: t.url ?? t.link,
        brand: t.brand ?? t.domain ?? t.source,
        cpc: t.cpc,
      })),
    );
  },
};
