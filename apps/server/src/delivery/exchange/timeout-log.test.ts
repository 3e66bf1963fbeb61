import { expect, test } from 'vitest';
import { memoryStore } from '../../lib/shared-store.ts';
import type { Bidder } from './adapter.ts';
import { createExchange, type LivePartner, type SlotOffer } from './exchange.ts';

/** A DSP partner that times out on every request must not write a warn line per request (hot path). */
test('a partner timing out on every request logs one warn a window, with the count it held back', async () => {
  const warns: { o: Record<string, unknown>; msg: string }[] = [];
  const partner = (id: number): LivePartner => ({
    id,
    name: `p${id}`,
    endpoint: 'http://127.0.0.1:9/bid',
    openrtbVersion: '2.5',
    dailyMoneyLimit: null,
    dailyBudgetLimit: null,
    maxRequestTime: 50,
    whitelist: [],
    blacklist: [],
    adPosition: 0,
  });
  // every call "times out" without touching the network
  const bidder: Bidder = {
    makeRequests: () => ({
      requests: [],
      errors: [{ kind: 'timeout', message: 'no answer within the max request time' }],
    }),
    makeBids: () => ({ response: null, errors: [] }),
  };
  const ex = createExchange({
    load: async () => [partner(1), partner(2)],
    stats: { write: async () => {}, today: async () => [] },
    store: memoryStore(),
    schainDomain: 'ads.example',
    bidder,
    logWindowMs: 150,
    log: { warn: (o, msg) => warns.push({ o: o as Record<string, unknown>, msg }), error: () => {} },
  });
  await ex.reload();
  const offer = {
    widget: { id: 1, siteId: 1, siteDomain: 'news.example', publisherId: 1 },
    visitor: { ip: '203.0.113.5', country: null, city: null, device: null, os: null, browserLanguage: null },
    visitorId: 'v1',
    userAgent: 'test',
    pageUrl: null,
    own: null,
  } as unknown as SlotOffer;
  try {
    for (let i = 0; i < 20; i++) expect(await ex.fill(offer)).toBeNull();
    // one line per partner, not forty
    expect(warns.map((w) => w.o.partner).sort()).toEqual([1, 2]);
    expect(warns.every((w) => w.o.suppressed === 0)).toBe(true);
    await new Promise((r) => setTimeout(r, 200));
    await ex.fill(offer);
    expect(warns).toHaveLength(4);
    expect(warns.slice(2).map((w) => w.o.suppressed)).toEqual([19, 19]);
  } finally {
    await ex.close();
  }
});
