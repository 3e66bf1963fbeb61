import type { CpcFeedProcessor } from './config.ts';

/** One ad from an external CPC feed, already cleaned: plain text, http(s) links only. */
export interface FeedItem {
  title: string;
  text: string;
  image: string;
  /** The feed's own click URL: the visitor must pass through it for the feed to pay. */
  url: string;
  brand: string;
  /** Micro-units the feed pays per click, when it says (feeds quote US dollars). */
  cpc: bigint | null;
}

/** What a feed needs to know about the slot and the visitor. */
export interface FeedRequest {
  count: number;
  ip: string;
  userAgent: string;
  pageUrl: string | null;
  language: string | null;
  country: string | null;
  visitorId: string;
}

/** One outgoing HTTP call, as a Prebid Server bidder's `MakeRequests` describes it. */
export interface FeedCall {
  url: string;
  method: 'GET' | 'POST';
  headers: Record<string, string>;
  body?: string;
}

export type FeedErrorKind =
  /** 400 from the feed: our request (or the campaign's feed configuration) is wrong. */
  | 'bad_request'
  /** any other non-2xx status, or an answer that is not the feed's format */
  | 'partner'
  | 'timeout'
  | 'aborted'
  | 'too_large'
  | 'network'
  /** the endpoint resolves to an address the outbound guard refuses */
  | 'blocked'
  /** the campaign's feed configuration cannot make a request */
  | 'config'
  /** the call needs something the outbound guard cannot do (kept for adapters of future feeds) */
  | 'unsupported';

/**
 * The only thing feed code throws. A feed with nothing to show is not an error: `parse` and
 * `fetchFeed` answer `[]` for 204 or an empty list.
 */
export class FeedError extends Error {
  constructor(
    readonly kind: FeedErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'FeedError';
  }
}

/** The shape of a Prebid Server bidder: build the call, read the answer. Both are pure. */
export interface FeedAdapter<C> {
  processor: CpcFeedProcessor;
  buildRequest(config: C, request: FeedRequest): FeedCall;
  parse(status: number, body: string): FeedItem[];
}
