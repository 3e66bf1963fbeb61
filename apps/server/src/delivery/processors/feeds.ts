import type { IndexedCreative } from '../ad-index.ts';
import { type FeedItem, type FeedRequest, fetchFeed } from '../feeds/index.ts';

/** How long a widget answer waits for external feeds: the page is waiting too. */
export const FEED_TIMEOUT_MS = 300;
/** How many cpcfeed campaigns (feeds) one answer asks at most. */
export const MAX_FEEDS = 3;

export interface FeedPick {
  creative: IndexedCreative;
  item: FeedItem;
}

/**
 * Asks the feeds of the chosen cpcfeed campaigns (their `src_code` is the feed's configuration, read when
 * the index is built; a campaign whose settings do not read is not in the index) at once, each within the
 * timeout, and returns up to `count` of their items in campaign order. A feed that fails or times out is
 * logged and left out; none answering gives `[]`.
 */
export async function feedPicks(
  campaigns: readonly IndexedCreative[],
  request: Omit<FeedRequest, 'count'>,
  count: number,
  opts: { timeoutMs?: number; allowLoopback?: boolean; warn: (o: object, msg: string) => void },
): Promise<FeedPick[]> {
  const answers = await Promise.all(
    campaigns.map(async (creative) => {
      // read once per index build; a feed campaign without a usable feed is not in the index
      const feed = creative.campaign.feed;
      if (!feed) return [];
      try {
        const items = await fetchFeed(
          feed.processor,
          feed.config,
          { ...request, count },
          { timeoutMs: opts.timeoutMs ?? FEED_TIMEOUT_MS, allowLoopback: opts.allowLoopback ?? false },
        );
        return items.map((item) => ({ creative, item }));
      } catch (err) {
        opts.warn({ err, campaignId: creative.campaign.id }, 'cpc feed failed; left out of this answer');
        return [];
      }
    }),
  );
  return answers.flat().slice(0, count);
}
