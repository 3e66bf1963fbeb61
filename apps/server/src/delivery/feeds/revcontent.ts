import type { RevcontentConfig } from './config.ts';
import { cleanItems, listIn, readJson, records } from './items.ts';
import type { FeedAdapter } from './types.ts';

/**
 * Revcontent's content API, as Revcontent's own widgets (RevSlider, RevFlicker, RevInstream) call
 * it: `GET https://trends.revcontent.com/api/v1/?api_key=…&pub_id=…&widget_id=…&domain=…
 * &sponsored_count=N&sponsored_offset=0&internal_count=0&internal_offset=0&user_ip=…&user_agent=…`.
 * v1 answers a bare list, v2 (`/api/v2/`) `{content: [...]}`; each item has `headline`, `url` (the
 * click URL, often protocol-relative), `image`, `brand` and sometimes `description`. No price is
 * given per item.
 */
export const revcontent: FeedAdapter<RevcontentConfig> = {
  processor: 'revcontent',
  buildRequest(config, request) {
    const url = new URL(config.endpoint);
    const q = url.searchParams;
    q.set('api_key', config.api_key);
    q.set('pub_id', config.pub_id);
    q.set('widget_id', config.widget_id);
    q.set('domain', config.domain);
    q.set('format', 'json');
    q.set('sponsored_count', String(request.count));
    q.set('sponsored_offset', '0');
    q.set('internal_count', '0');
    q.set('internal_offset', '0');
    q.set('user_ip', request.ip);
    q.set('user_agent', request.userAgent);
    return { url: url.toString(), method: 'GET', headers: { accept: 'application/json' } };
  },
  parse(status, body) {
    const json = readJson(status, body);
    if (json === undefined) return [];
    return cleanItems(
      records(listIn(json, ['content'])).map((c) => ({
        title: c.headline ?? c.title,
        text: c.description,
        image: c.image,
        url: c.url,
        brand: c.brand,
      })),
    );
  },
};
