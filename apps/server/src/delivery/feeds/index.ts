import { OutboundError, safeFetch } from '../../lib/safe-fetch.ts';
import type { CpcFeedProcessor, FeedConfigs } from './config.ts';
import { contentad } from './contentad.ts';
import { mgid } from './mgid.ts';
import { mgidv2 } from './mgidv2.ts';
import { revcontent } from './revcontent.ts';
import { type FeedAdapter, type FeedCall, FeedError, type FeedItem, type FeedRequest } from './types.ts';

export { type CpcFeedProcessor, type FeedConfig, type FeedConfigs, parseFeedConfig } from './config.ts';
export {
  type FeedAdapter,
  type FeedCall,
  FeedError,
  type FeedErrorKind,
  type FeedItem,
  type FeedRequest,
} from './types.ts';

export const feedAdapters: { [P in CpcFeedProcessor]: FeedAdapter<FeedConfigs[P]> } = {
  mgid,
  mgidv2,
  revcontent,
  contentad,
};

/** A widget has at most a few dozen slots; a feed answering more is cut, never trusted to be small. */
const MAX_COUNT = 50;
const DEFAULT_MAX_BYTES = 512 * 1024;

export interface FetchFeedOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** answers larger than this fail as `too_large` */
  maxBytes?: number;
  /** only for tests (`OUTBOUND_ALLOW_LOOPBACK=1`): lets the endpoint be 127.0.0.1 */
  allowLoopback?: boolean;
}

const reasonKind: Record<OutboundError['reason'], FeedError['kind']> = {
  blocked_address: 'blocked',
  timeout: 'timeout',
  too_large: 'too_large',
  bad_url: 'config',
  http_status: 'partner',
  network: 'network',
};

function asFeedError(e: unknown): FeedError {
  if (e instanceof FeedError) return e;
  if (e instanceof OutboundError) return new FeedError(reasonKind[e.reason], e.message);
  return new FeedError('network', e instanceof Error ? e.message : String(e));
}

/**
 * Every call goes through the outbound guard (`safeFetch`): every address checked at connect time, time and
 * size capped. GET feeds carry the visitor in the query; mgidv2 POSTs its OpenRTB request as JSON with the
 * adapter's headers (content type, accept, user agent).
 */
async function send(call: FeedCall, opts: FetchFeedOptions): Promise<{ status: number; body: string }> {
  const { 'user-agent': _ua, ...headers } = call.headers;
  const page = await safeFetch(call.url, {
    method: call.method,
    headers,
    ...(call.body !== undefined ? { body: call.body } : {}),
    timeoutMs: opts.timeoutMs,
    maxBytes: opts.maxBytes ?? DEFAULT_MAX_BYTES,
    allowLoopback: opts.allowLoopback ?? false,
    // the feed's own redirects are its business, but a feed API that redirects is misconfigured
    maxRedirects: 2,
    userAgent: call.headers['user-agent'] ?? 'AdPlatform/1.0 (+cpc feed)',
  });
  return { status: page.status, body: page.body.toString('utf8') };
}

/**
 * Asks one feed for ads for one widget slot set: at most `request.count` items, each with an http(s)
 * click URL and image and plain-text title and text of at most 60 characters. No fill is `[]`;
 * every failure (time, size, status, malformed answer, refused address, abort) is a FeedError, so a
 * caller can log it and serve the widget without the feed.
 */
export async function fetchFeed<P extends CpcFeedProcessor>(
  processor: P,
  config: FeedConfigs[P],
  request: FeedRequest,
  opts: FetchFeedOptions,
): Promise<FeedItem[]> {
  const adapter = feedAdapters[processor] as FeedAdapter<FeedConfigs[P]> | undefined;
  if (!adapter) throw new FeedError('config', `unknown feed processor ${String(processor)}`);
  const count = Math.min(MAX_COUNT, Math.max(0, Math.floor(request.count)));
  if (count === 0) return [];
  if (opts.signal?.aborted) throw new FeedError('aborted', 'aborted before the call');

  // safeFetch has its own deadline, but a name lookup is outside it and it takes no signal: this
  // race is what makes the timeout hard. The request itself still ends at safeFetch's deadline.
  const stop = AbortSignal.any([AbortSignal.timeout(opts.timeoutMs), ...(opts.signal ? [opts.signal] : [])]);
  let onAbort: (() => void) | undefined;
  const stopped = new Promise<never>((_, reject) => {
    onAbort = () =>
      reject(
        opts.signal?.aborted
          ? new FeedError('aborted', 'the caller gave up')
          : new FeedError('timeout', `no answer in ${opts.timeoutMs} ms`),
      );
    stop.addEventListener('abort', onAbort, { once: true });
  });
  try {
    let call: FeedCall;
    try {
      call = adapter.buildRequest(config, { ...request, count });
    } catch (e) {
      throw new FeedError('config', e instanceof Error ? e.message : String(e));
    }
    const answer = await Promise.race([send(call, opts), stopped]);
    return adapter.parse(answer.status, answer.body).slice(0, count);
  } catch (e) {
    throw asFeedError(e);
  } finally {
    if (onAbort) stop.removeEventListener('abort', onAbort);
    stopped.catch(() => {});
  }
}
