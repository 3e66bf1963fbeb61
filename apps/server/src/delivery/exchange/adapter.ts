import { OutboundError, safeFetch } from '../../lib/safe-fetch.ts';
import { type Bid, type BidRequest, type BidResponse, type NativeAd, parseNativeAdm } from './openrtb.ts';

/**
 * A DSP partner adapter in the shape of a Prebid Server bidder (adapters.Bidder in prebid-server):
 * `makeRequests` turns our bid request into the HTTP calls the partner wants, `makeBids` reads one HTTP
 * answer back into typed bids. Errors are typed as Prebid Server's are: `bad_input` (a 400: our request
 * was at fault), `bad_server_response` (any other non-200, malformed JSON, a wrong currency, an unusable
 * bid: the partner's fault), plus `timeout` and `network` for the call itself. 204 is a no-bid, not an error.
 */

export interface RequestData {
  method: 'POST';
  uri: string;
  body: string;
  headers: Record<string, string>;
}
export interface ResponseData {
  statusCode: number;
  body: string;
}
export interface BidderError {
  kind: 'bad_input' | 'bad_server_response' | 'timeout' | 'network';
  message: string;
}
export interface TypedBid {
  bid: Bid;
  bidType: 'native';
  /** The bid's markup read as a native ad. */
  native: NativeAd;
  seat: string;
}
export interface BidderResponse {
  currency: string;
  bids: TypedBid[];
}
/** What an adapter needs of a DSP partner. */
export interface AdapterPartner {
  endpoint: string;
  openrtbVersion: '2.5' | '2.6';
}

export interface Bidder {
  makeRequests(req: BidRequest, partner: AdapterPartner): { requests: RequestData[]; errors: BidderError[] };
  makeBids(
    req: BidRequest,
    data: RequestData,
    res: ResponseData,
  ): { response: BidderResponse | null; errors: BidderError[] };
}

const badServer = (message: string): BidderError => ({ kind: 'bad_server_response', message });

/** The plain OpenRTB adapter: one POST of the request as JSON; 2.5 partners get the schain in `source.ext`. */
export const openRtbBidder: Bidder = {
  makeRequests(req, partner) {
    let body: BidRequest = req;
    if (partner.openrtbVersion === '2.5' && req.source.schain) {
      const { schain, ...source } = req.source;
      body = { ...req, source: { ...source, ext: { schain } } };
    }
    return {
      requests: [
        {
          method: 'POST',
          uri: partner.endpoint,
          body: JSON.stringify(body),
          headers: {
            'content-type': 'application/json;charset=utf-8',
            accept: 'application/json',
            'x-openrtb-version': partner.openrtbVersion,
          },
        },
      ],
      errors: [],
    };
  },

  makeBids(req, _data, res) {
    if (res.statusCode === 204) return { response: null, errors: [] };
    if (res.statusCode === 400)
      return {
        response: null,
        errors: [
          { kind: 'bad_input', message: `Unexpected status code: 400. ${res.body.slice(0, 200)}`.trim() },
        ],
      };
    if (res.statusCode !== 200)
      return { response: null, errors: [badServer(`Unexpected status code: ${res.statusCode}`)] };
    let parsed: BidResponse;
    try {
      parsed = JSON.parse(res.body) as BidResponse;
    } catch {
      return { response: null, errors: [badServer('malformed JSON')] };
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
      return { response: null, errors: [badServer('malformed JSON')] };
    const wanted = req.cur[0] ?? 'USD';
    const currency = typeof parsed.cur === 'string' && parsed.cur ? parsed.cur.toUpperCase() : 'USD';
    if (currency !== wanted)
      return { response: null, errors: [badServer(`wrong currency ${currency}, asked for ${wanted}`)] };
    if (parsed.seatbid !== undefined && !Array.isArray(parsed.seatbid))
      return { response: null, errors: [badServer('malformed JSON: seatbid is not an array')] };
    const errors: BidderError[] = [];
    const bids: TypedBid[] = [];
    const imps = new Set(req.imp.map((i) => i.id));
    for (const seat of parsed.seatbid ?? []) {
      for (const bid of Array.isArray(seat?.bid) ? seat.bid : []) {
        if (!bid || typeof bid !== 'object' || typeof bid.id !== 'string') {
          errors.push(badServer('bid without id'));
          continue;
        }
        if (!imps.has(bid.impid)) {
          errors.push(badServer(`bid ${bid.id} for unknown imp ${String(bid.impid)}`));
          continue;
        }
        if (
          typeof bid.price !== 'number' ||
          !Number.isFinite(bid.price) ||
          bid.price <= 0 ||
          bid.price > 1_000_000
        ) {
          errors.push(badServer(`bid ${bid.id} has no usable price`));
          continue;
        }
        const native = typeof bid.adm === 'string' ? parseNativeAdm(bid.adm) : null;
        if (!native) {
          errors.push(badServer(`bid ${bid.id} has no usable native markup`));
          continue;
        }
        bids.push({ bid, bidType: 'native', native, seat: typeof seat.seat === 'string' ? seat.seat : '' });
      }
    }
    return { response: { currency, bids }, errors };
  },
};

/**
 * Runs an adapter over HTTP through the outbound fetch guard within `timeoutMs`: every request of
 * `makeRequests` is sent at once; the answers are read by `makeBids`.
 */
export async function callBidder(
  bidder: Bidder,
  req: BidRequest,
  partner: AdapterPartner,
  opts: { timeoutMs: number; allowLoopback?: boolean | undefined },
): Promise<{ bids: TypedBid[]; currency: string; errors: BidderError[] }> {
  const made = bidder.makeRequests(req, partner);
  const errors = [...made.errors];
  const answers = await Promise.all(
    made.requests.map(async (data) => {
      try {
        const res = await safeFetch(data.uri, {
          method: 'POST',
          body: data.body,
          headers: data.headers,
          timeoutMs: opts.timeoutMs,
          maxBytes: 256 * 1024,
          maxRedirects: 0,
          allowLoopback: opts.allowLoopback ?? false,
          userAgent: 'AdPlatformExchange/1.0',
        });
        return bidder.makeBids(req, data, { statusCode: res.status, body: res.body.toString('utf8') });
      } catch (err) {
        const e: BidderError =
          err instanceof OutboundError && err.reason === 'timeout'
            ? { kind: 'timeout', message: 'no answer within the max request time' }
            : { kind: 'network', message: err instanceof Error ? err.message : String(err) };
        return { response: null, errors: [e] };
      }
    }),
  );
  const bids: TypedBid[] = [];
  let currency = req.cur[0] ?? 'USD';
  for (const a of answers) {
    errors.push(...a.errors);
    if (a.response) {
      bids.push(...a.response.bids);
      currency = a.response.currency;
    }
  }
  return { bids, currency, errors };
}
