import { timingSafeEqual } from 'node:crypto';
import { randomString } from '../../delivery/random-pool.ts';
import { hmacSha256 } from '../../lib/hmac.ts';

/**
 * What a bid's win and billing URLs carry, signed (HMAC-SHA256 with the delivery secret, 16 bytes) so a
 * partner can neither forge one nor change the campaign or our price; it expires with its issue time. The
 * clearing price comes apart in the `price` query (`${AUCTION_PRICE}`).
 */
export interface BidClaim {
  /** 12 random bytes, hex: the bid's id (and the notices' unique key). */
  bidId: string;
  partnerId: number;
  campaignId: number;
  bannerId: number;
  /** The site domain or app bundle the request named ('' when none). */
  source: string;
  /** Our bid, micro-units of the platform currency per 1000 impressions. */
  bid: number;
  /** The bid's currency and its units per 1 platform unit (1 for the platform currency). */
  cur: string;
  rate: number;
  /** Seconds since the epoch. */
  issuedAt: number;
  /** A bid to a Prebid Server: `partnerId` is then a Prebid partner's id. Absent: an RTB partner's. */
  channel?: 'prebid';
  /**
   * A Prebid bid's country (alpha-2) and device type as the bidder read the request ('' unknown): its win
   * and impression are counted under them in the partner's statistics by country and device.
   */
  country?: string;
  device?: string;
}

export const newBidId = () => randomString(12, 'hex');

export function createBidSigner(secret: string | Buffer, ttlSeconds: number) {
  const hmac = hmacSha256(secret);
  const mac = (body: string) => hmac(`rtb:${body}`).subarray(0, 16);
  return {
    sign(c: BidClaim): string {
      const body = Buffer.from(
        JSON.stringify([
          c.bidId,
          c.partnerId,
          c.campaignId,
          c.bannerId,
          c.source,
          c.bid,
          c.cur,
          c.rate,
          c.issuedAt,
          ...(c.channel ? [c.channel, c.country ?? '', c.device ?? ''] : []),
        ]),
      ).toString('base64url');
      return `${body}.${mac(body).toString('base64url')}`;
    },
    /** The claim of a genuine, unexpired token, else why not. */
    open(token: string, now = Date.now()): BidClaim | 'malformed' | 'forged' | 'expired' {
      const dot = token.indexOf('.');
      if (dot <= 0 || token.length > 2048) return 'malformed';
      const body = token.slice(0, dot);
      const given = Buffer.from(token.slice(dot + 1), 'base64url');
      const expected = mac(body);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'forged';
      let v: unknown;
      try {
        v = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
      } catch {
        return 'malformed';
      }
      // 9 fields: an RTB partner's bid; 12: a Prebid bid with its country and device (10: one issued before)
      if (
        !Array.isArray(v) ||
        (v.length !== 9 && !((v.length === 10 || v.length === 12) && v[9] === 'prebid'))
      )
        return 'malformed';
      const [
        bidId,
        partnerId,
        campaignId,
        bannerId,
        source,
        bid,
        cur,
        rate,
        issuedAt,
        channel,
        country,
        device,
      ] = v as [
        string,
        number,
        number,
        number,
        string,
        number,
        string,
        number,
        number,
        'prebid' | undefined,
        string | undefined,
        string | undefined,
      ];
      if (now / 1000 - issuedAt > ttlSeconds) return 'expired';
      return {
        bidId,
        partnerId,
        campaignId,
        bannerId,
        source,
        bid,
        cur,
        rate,
        issuedAt,
        ...(channel ? { channel, country: String(country ?? ''), device: String(device ?? '') } : {}),
      };
    },
  };
}
export type BidSigner = ReturnType<typeof createBidSigner>;
