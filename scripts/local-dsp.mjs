// A local DSP for the demo: a node:http server that answers our OpenRTB bid requests (POST /openrtb2/bid)
// with real native bids, and no bid (204) for a share of them, like a demand partner with its own budget.
// Its win (nurl) and loss (lurl) notices are counted; GET /stats shows the counts.
import { createServer } from 'node:http';

const SVG = (hue) =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="300" height="250"><rect width="300" height="250" fill="hsl(${hue},70%,55%)"/><circle cx="230" cy="70" r="36" fill="#fff" opacity=".8"/><path d="M0 250 L90 150 L170 210 L240 160 L300 200 L300 250Z" fill="#0003"/></svg>`;

const ADS = [
  { title: 'Noise-cancelling headphones, 40 % off', brand: 'SoundPeak', text: 'Two days only', hue: 210 },
  { title: 'A weekend in Porto from €89', brand: 'TripNest', text: 'Flight and hotel', hue: 20 },
  { title: 'Learn to code in 12 weeks', brand: 'CodeCamp', text: 'Evening classes, online', hue: 140 },
  { title: 'The espresso machine baristas use', brand: 'Crema', text: 'Free delivery', hue: 35 },
];

/**
 * Starts the DSP on `port` (0 picks a free one). `noBid` is the share of requests answered with 204;
 * prices are CPM in USD between `minCpm` and `maxCpm`.
 */
export async function startLocalDsp({ port = 0, noBid = 0.3, minCpm = 4, maxCpm = 14, seed = 7 } = {}) {
  let state = seed >>> 0 || 1;
  const random = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const counts = { requests: 0, bids: 0, noBids: 0, wins: 0, losses: 0, malformed: 0 };
  let base = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://dsp.local');
    if (req.method === 'GET' && url.pathname.startsWith('/img/')) {
      res.writeHead(200, { 'content-type': 'image/svg+xml', 'cache-control': 'max-age=3600' });
      res.end(SVG(Number(url.pathname.slice(5)) || 0));
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/win' || url.pathname === '/loss')) {
      counts[url.pathname === '/win' ? 'wins' : 'losses'] += 1;
      res.writeHead(204).end();
      return;
    }
    if (req.method === 'GET' && url.pathname === '/stats') {
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(counts));
      return;
    }
    if (req.method !== 'POST' || url.pathname !== '/openrtb2/bid') {
      res.writeHead(404).end();
      return;
    }
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      counts.requests += 1;
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        counts.malformed += 1;
        res.writeHead(400, { 'content-type': 'text/plain' }).end('malformed JSON');
        return;
      }
      const imps = Array.isArray(body?.imp) ? body.imp.filter((i) => i?.native) : [];
      if (!imps.length || random() < noBid) {
        counts.noBids += 1;
        res.writeHead(204).end();
        return;
      }
      const bids = imps.map((imp, n) => {
        const ad = ADS[Math.floor(random() * ADS.length)];
        const price = Math.max(minCpm + random() * (maxCpm - minCpm), Number(imp.bidfloor) || 0);
        const adm = {
          native: {
            ver: '1.2',
            assets: [
              { id: 1, title: { text: ad.title } },
              { id: 2, img: { url: `${base}/img/${ad.hue}`, w: 300, h: 250 } },
              { id: 3, data: { value: ad.text } },
              { id: 4, data: { type: 1, value: ad.brand } },
            ],
            link: { url: `https://${ad.brand.toLowerCase()}.example/?utm_source=localdsp` },
            eventtrackers: [{ event: 1, method: 1, url: `${base}/imp` }],
          },
        };
        return {
          id: `${body.id}-${n}`,
          impid: String(imp.id),
          price: Number(price.toFixed(2)),
          adm: JSON.stringify(adm),
          adid: `ad-${ad.hue}`,
          crid: `cr-${ad.hue}`,
          adomain: [`${ad.brand.toLowerCase()}.example`],
          nurl: `${base}/win?price=\${AUCTION_PRICE}`,
          lurl: `${base}/loss?reason=\${AUCTION_LOSS}`,
        };
      });
      counts.bids += 1;
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ id: body.id, cur: 'USD', seatbid: [{ seat: 'local-dsp', bid: bids }] }));
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  base = `http://127.0.0.1:${server.address().port}`;
  return {
    url: `${base}/openrtb2/bid`,
    counts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
