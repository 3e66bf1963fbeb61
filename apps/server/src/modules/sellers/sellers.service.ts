import type { AdsTxtCheck, SellersJson } from '@adp/contract';
import type { Config } from '../../config.ts';
import { OutboundError, safeFetch } from '../../lib/safe-fetch.ts';
import type { SellersRepository } from './sellers.repository.ts';

/** How long a built sellers.json is served before it is rebuilt. */
export const SELLERS_TTL_MS = 5 * 60_000;
/** ads.txt files are small; a larger answer is not read. */
const ADS_TXT_MAX_BYTES = 512 * 1024;
const ADS_TXT_TIMEOUT_MS = 5_000;

/**
 * Whether an ads.txt text holds our line: a record (comments and spaces dropped) with our domain and
 * the seller id, relationship DIRECT; domain and relationship compare case-insensitively (IAB ads.txt 1.1).
 * @example hasAdsTxtLine('ads.example.com, 7, DIRECT # us', 'ads.example.com', '7') // true
 */
export function hasAdsTxtLine(text: string, domain: string, sellerId: string): boolean {
  return text.split(/\r?\n/).some((raw) => {
    const [a, b, c] = (raw.split('#')[0] ?? '').split(',').map((f) => f.trim());
    return a?.toLowerCase() === domain.toLowerCase() && b === sellerId && c?.toUpperCase() === 'DIRECT';
  });
}

/** sellers.json and the ads.txt lines of publishers (DESIGN.md "Exchange": supply chain transparency). */
export function createSellers(
  repo: SellersRepository,
  config: Config,
  fetchOpts: { allowLoopback?: boolean } = {},
) {
  const ourDomain = new URL(config.publicUrl).hostname;
  let cached: { at: number; body: SellersJson } | undefined;

  return {
    ourDomain,

    /** Publishers: owners of active, approved sites; each with its first such site's domain. */
    async sellersJson(now = Date.now()): Promise<SellersJson> {
      if (cached && now - cached.at < SELLERS_TTL_MS) return cached.body;
      const rows = await repo.publishers();
      const body: SellersJson = {
        contact_email: config.sellersContactEmail ?? `adops@${ourDomain}`,
        version: '1.0',
        sellers: rows.map((r) => ({
          seller_id: String(r.userId),
          name: r.name,
          domain: r.domain,
          seller_type: 'PUBLISHER' as const,
          is_confidential: 0 as const,
        })),
      };
      cached = { at: now, body };
      return body;
    },

    /** The line a publisher puts in its ads.txt. */
    line(sellerId: string) {
      return [ourDomain, sellerId, 'DIRECT', ...(config.adsTxtCertId ? [config.adsTxtCertId] : [])].join(
        ', ',
      );
    },

    /** Fetches `url` through the outbound guard and looks for the publisher's line. */
    async check(url: string, sellerId: string): Promise<AdsTxtCheck> {
      const checked_at = new Date().toISOString();
      try {
        const page = await safeFetch(url, {
          timeoutMs: ADS_TXT_TIMEOUT_MS,
          maxBytes: ADS_TXT_MAX_BYTES,
          allowLoopback: fetchOpts.allowLoopback ?? config.outboundAllowLoopback,
        });
        if (page.status !== 200)
          return { found: false, url, status: page.status, error: 'http_status', checked_at };
        const found = hasAdsTxtLine(page.body.toString('utf8'), ourDomain, sellerId);
        return { found, url, status: page.status, error: null, checked_at };
      } catch (err) {
        if (!(err instanceof OutboundError)) throw err;
        const error =
          err.reason === 'timeout' || err.reason === 'too_large' || err.reason === 'blocked_address'
            ? err.reason
            : err.reason === 'http_status'
              ? 'http_status'
              : 'unreachable';
        return { found: false, url, status: null, error, checked_at };
      }
    },
  };
}
export type Sellers = ReturnType<typeof createSellers>;
