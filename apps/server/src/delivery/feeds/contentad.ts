import type { ContentadConfig } from './config.ts';
import { cleanItems, listIn, readJson, records } from './items.ts';
import type { FeedAdapter } from './types.ts';

/**
 * Content.ad's Widget API (help.content.ad, "Auction partner documentation"):
 * `GET …/api.svc/GetWidget/<widget id>/<domain id>/?url=<page>&ipAddress=…&userAgent=…&served=true`
 * answers `{impression_key, impression_served_url, slot_count, articles: [{slot, url, title, image,
 * sponsored, sponsored_by, cpc, score}]}`. The number of ads is a setting of the widget at
 * Content.ad, so we only cut the list. Articles with `sponsored: false` are the publisher's own
 * content there and earn nothing, so they are left out. The documentation shows http://; we call
 * https by default.
 */
export const contentad: FeedAdapter<ContentadConfig> = {
  processor: 'contentad',
  buildRequest(config, request) {
    const url = new URL(
      `${encodeURIComponent(config.widget_id)}/${encodeURIComponent(config.domain_id)}/`,
      config.endpoint,
    );
    const q = url.searchParams;
    const page = request.pageUrl ?? config.site_url;
    if (page) q.set('url', page);
    q.set('ipAddress', request.ip);
    q.set('userAgent', request.userAgent);
    q.set('served', 'true');
    return { url: url.toString(), method: 'GET', headers: { accept: 'application/json' } };
  },
  parse(status, body) {
    const json = readJson(status, body);
    if (json === undefined) return [];
    return cleanItems(
      records(listIn(json, ['articles']))
        .filter((a) => a.sponsored !== false)
        .map((a) => ({
          title: a.title,
          image: a.image,
          url: a.url,
          brand: a.sponsored_by,
          cpc: a.cpc,
        })),
    );
  },
};
