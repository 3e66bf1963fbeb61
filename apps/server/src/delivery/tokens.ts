import { timingSafeEqual } from 'node:crypto';
import { browsers, devices, operatingSystems } from '@adp/contract';
import { hmacSha256 } from '../lib/hmac.ts';
import { randomString } from './random-pool.ts';

/**
 * The signed token of an ad answer. One token names everything one answer showed (to whom, where, which
 * creatives at which price) and is signed once, HMAC-SHA256 with the instance-wide delivery secret, so it
 * can be neither forged nor altered; it carries its issue time, so it expires. The answer's URLs all carry
 * it: the impression beacon `/serve/i/<T>`, the viewable beacon `/serve/v/<T>` (the path says which), and
 * each sponsored item's `/click/<T>.<position>`. The position is outside the signature: changing it names
 * another item of the same answer, which the visitor was shown and holds a URL for anyway; each
 * (answer, position) is charged at most once. Single use is enforced by whoever consumes the token (a
 * shared-store claim, and a unique key in the database for clicks).
 *
 * One signature per answer rather than one per URL: signing is most of an answer's cost, and an answer
 * has up to a dozen URLs.
 *
 * Layout (then base64url): version, kind, issued-at (seconds, u32), impression id (12 random bytes),
 * varints and short strings for the rest, and 16 bytes of HMAC-SHA256 over everything before it.
 */

export type TokenKind = 'answer';
const kindCode: Record<TokenKind, number> = { answer: 4 };
const VERSION = 2;
const MAC_BYTES = 16;
const IMP_BYTES = 12;
/** The most items one answer names, and the longest destination an item carries. */
const MAX_ITEMS = 256;
const MAX_URL = 4096;

export interface ShownItem {
  campaignId: number;
  bannerId: number;
  /** What a click on it costs the campaign, micro-units, fixed when it was shown. */
  price: bigint;
  /** Where a click goes when not the creative's own URL (an external feed's click URL). */
  url?: string;
}

/** What one ad answer showed: the facts a beacon or a click needs, without reading anything again. */
export interface Shown {
  /** 12 random bytes, hex: names this answer; a click's key is `${impressionId}:${position}`. */
  impressionId: string;
  issuedAt: number;
  widgetId: number;
  siteId: number;
  visitorId: string;
  country: string;
  device: string;
  os: string;
  browser: string;
  /** The visitor's city name ('' or absent when unknown): the rollups' `city`. */
  city?: string;
  items: ShownItem[];
  /**
   * The ids of the site's own materials (articles) the answer showed, in their order: their impressions
   * count with the answer's impression beacon, their clicks through `/serve/m/<T>.<material id>`. Written
   * after the items only when there are some, so tokens without them read as before.
   */
  materials?: number[];
}

export interface ClickClaim extends Omit<Shown, 'items'> {
  position: number;
  item: ShownItem;
}

export type TokenError = 'malformed' | 'forged' | 'wrong_kind';

const deviceIndex = new Map<string, number>(devices.map((d, i) => [d, i + 1]));
const osIndex = new Map<string, number>(operatingSystems.map((d, i) => [d, i + 1]));
const browserIndex = new Map<string, number>(browsers.map((d, i) => [d, i + 1]));

class Writer {
  private buf = Buffer.allocUnsafe(256);
  private at = 0;
  /** Starts a new token in the same buffer (a signer writes one token at a time, synchronously). */
  reset() {
    this.at = 0;
    return this;
  }
  private room(n: number) {
    if (this.at + n <= this.buf.length) return;
    const next = Buffer.allocUnsafe(Math.max(this.buf.length * 2, this.at + n));
    this.buf.copy(next, 0, 0, this.at);
    this.buf = next;
  }
  byte(n: number) {
    this.room(1);
    this.buf[this.at++] = n;
  }
  u32(n: number) {
    this.room(4);
    this.buf.writeUInt32BE(n >>> 0, this.at);
    this.at += 4;
  }
  /** Hex digits as the bytes they spell (an even count). */
  hex(h: string) {
    const n = h.length >>> 1;
    this.room(n);
    if (this.buf.write(h, this.at, n, 'hex') !== n) throw new Error('not hex');
    this.at += n;
  }
  bytes(b: Buffer) {
    this.room(b.length);
    b.copy(this.buf, this.at);
    this.at += b.length;
  }
  /** Unsigned LEB128 of a non-negative integer up to 2^63. */
  varint(value: number | bigint) {
    // the same bytes without BigInt arithmetic for the usual sizes (prices, ids)
    if (value >= 0 && value < 0x80000000) return this.uint(Number(value));
    let v = BigInt(value);
    if (v < 0n) throw new Error('varint must be non-negative');
    do {
      let b = Number(v & 0x7fn);
      v >>= 7n;
      if (v > 0n) b |= 0x80;
      this.byte(b);
    } while (v > 0n);
  }
  /** Small numbers (ids below 2^31) without BigInt. */
  uint(n: number) {
    if (n < 0x80000000) {
      while (n >= 0x80) {
        this.byte((n & 0x7f) | 0x80);
        n >>>= 7;
      }
      this.byte(n);
    } else this.varint(n);
  }
  /** Length-prefixed UTF-8, written in place (no Buffer per string: an answer's token has several). */
  str(s: string) {
    if (s.length === 0) return this.byte(0);
    const n = Buffer.byteLength(s, 'utf8');
    this.uint(n);
    this.room(n);
    this.buf.write(s, this.at, n, 'utf8');
    this.at += n;
  }
  /** Overwrites a byte already written. */
  set(at: number, n: number) {
    this.buf[at] = n;
  }
  done() {
    return this.buf.subarray(0, this.at);
  }
}

class Reader {
  at = 0;
  constructor(private buf: Buffer) {}
  byte() {
    if (this.at >= this.buf.length) throw new RangeError('short');
    return this.buf[this.at++] as number;
  }
  u32() {
    if (this.at + 4 > this.buf.length) throw new RangeError('short');
    const n = this.buf.readUInt32BE(this.at);
    this.at += 4;
    return n;
  }
  /** `n` bytes as text in `encoding`, read in place (a Buffer view per string costs more than the string). */
  private text(n: number, encoding: 'utf8' | 'hex') {
    if (this.at + n > this.buf.length) throw new RangeError('short');
    const s = this.buf.toString(encoding, this.at, this.at + n);
    this.at += n;
    return s;
  }
  varint(): bigint {
    // up to 7 bytes (49 bits) in plain numbers, exactly; longer ones the slow way
    const start = this.at;
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      const b = this.byte();
      n += (b & 0x7f) * mul;
      if (!(b & 0x80)) return BigInt(n);
      mul *= 128;
    }
    this.at = start;
    let v = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.byte();
      v |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return v;
      shift += 7n;
      if (shift > 63n) throw new RangeError('varint too long');
    }
  }
  uint(): number {
    let n = 0;
    let mul = 1;
    for (let i = 0; i < 7; i++) {
      const b = this.byte();
      n += (b & 0x7f) * mul;
      if (!(b & 0x80)) return n;
      mul *= 128;
    }
    this.at -= 7;
    const v = this.varint();
    if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError('too big');
    return Number(v);
  }
  /** Length-prefixed UTF-8. */
  str(max = 64) {
    const n = this.uint();
    if (n > max) throw new RangeError('string too long');
    return n === 0 ? '' : this.text(n, 'utf8');
  }
  /** `n` bytes as hex digits. */
  hex(n: number) {
    return this.text(n, 'hex');
  }
  get left() {
    return this.buf.length - this.at;
  }
}

export interface TokenSigner {
  newImpressionId(): string;
  /** The answer's token: `/serve/i/<T>`, `/serve/v/<T>`, and `/click/<clickToken(T, position)>`. */
  signAnswer(shown: Shown): string;
  /** What an answer token names, or why it is refused. */
  read(token: string): Shown | TokenError;
  /** The claim of a click token `<T>.<position>`: the answer's facts and the item at that position. */
  readClick(token: string): ClickClaim | TokenError;
  /** Whether a token issued at `issuedAt` (seconds) is past its lifetime. */
  expired(issuedAt: number, nowMs?: number): boolean;
  /**
   * The public click id of a click token (its `<impression id>:<position>` key): keyed, so nobody can make
   * one up, and the same for every use of that token, so a replay's redirect names the click that was
   * recorded, not an id that exists nowhere.
   */
  clickId(tokenKey: string): string;
}

/** The click token of the item at `position` of an answer signed as `answer`. */
export const clickToken = (answer: string, position: number) => `${answer}.${position}`;

/**
 * @param secret the instance-wide delivery secret (shared by every instance through the database)
 * @param ttlSeconds CLICK_TTL: how long a token stays valid
 */
export function createTokenSigner(secret: string | Buffer, ttlSeconds: number): TokenSigner {
  const hmac = hmacSha256(secret);
  const mac = (payload: Buffer) => hmac(payload).subarray(0, MAC_BYTES);
  const writer = new Writer();

  function head(w: Writer, s: Shown) {
    w.byte(VERSION);
    w.byte(kindCode.answer);
    w.u32(s.issuedAt);
    w.hex(s.impressionId);
    w.uint(s.widgetId);
    w.uint(s.siteId);
    w.str(s.visitorId);
    w.str(s.country);
    w.byte(deviceIndex.get(s.device) ?? 0);
    w.byte(osIndex.get(s.os) ?? 0);
    w.byte(browserIndex.get(s.browser) ?? 0);
    w.str(s.city ?? '');
  }
  function item(w: Writer, it: ShownItem) {
    w.uint(it.campaignId);
    w.uint(it.bannerId);
    w.varint(it.price);
    // '' when the click goes to the creative's own URL
    w.str(it.url ?? '');
  }
  /** The signed bytes of a token (without its MAC), or why it is refused. */
  function verified(token: string): Buffer | TokenError {
    if (token.length < 40 || token.length > 16_384 || !/^[A-Za-z0-9_-]+$/.test(token)) return 'malformed';
    const raw = Buffer.from(token, 'base64url');
    // only the canonical spelling: one answer, one token string (unused low bits of the last character
    // would otherwise give every token a few aliases)
    if (raw.length <= MAC_BYTES + 8 || raw.toString('base64url') !== token) return 'malformed';
    const payload = raw.subarray(0, raw.length - MAC_BYTES);
    const given = raw.subarray(raw.length - MAC_BYTES);
    if (!timingSafeEqual(given, mac(payload))) return 'forged';
    return payload;
  }
  /** What every token says before its items: the answer's facts. */
  function headOf(r: Reader): Omit<Shown, 'items' | 'materials'> | TokenError {
    if (r.byte() !== VERSION) return 'malformed';
    if (r.byte() !== kindCode.answer) return 'wrong_kind';
    const issuedAt = r.u32();
    const impressionId = r.hex(IMP_BYTES);
    const widgetId = r.uint();
    const siteId = r.uint();
    const visitorId = r.str();
    const country = r.str();
    const device = devices[r.byte() - 1] ?? '';
    const os = operatingSystems[r.byte() - 1] ?? '';
    const browser = browsers[r.byte() - 1] ?? '';
    const city = r.str(512);
    return { impressionId, issuedAt, widgetId, siteId, visitorId, country, device, os, browser, city };
  }
  function itemOf(r: Reader): ShownItem {
    const it: ShownItem = { campaignId: r.uint(), bannerId: r.uint(), price: r.varint() };
    const url = r.str(MAX_URL);
    if (url) it.url = url;
    return it;
  }
  /** The verified answer, or why not. */
  function open(token: string): Shown | TokenError {
    const payload = verified(token);
    if (typeof payload === 'string') return payload;
    try {
      const r = new Reader(payload);
      const head = headOf(r);
      if (typeof head === 'string') return head;
      const n = r.uint();
      if (n > MAX_ITEMS) return 'malformed';
      // plain loops: Array.from over `{length}` with a callback stays on V8's slow generic path, and was half
      // of reading a beacon's token
      const items: ShownItem[] = [];
      for (let i = 0; i < n; i++) items.push(itemOf(r));
      let materials: number[] | undefined;
      if (r.left > 0) {
        const m = r.uint();
        if (m > MAX_ITEMS) return 'malformed';
        materials = [];
        for (let i = 0; i < m; i++) materials.push(r.uint());
      }
      if (r.left !== 0) return 'malformed';
      // the head grown in place: a spread of it into a new object is V8's slow path, and was a third of
      // reading a click's token
      const shown = head as Shown;
      shown.items = items;
      if (materials) shown.materials = materials;
      return shown;
    } catch {
      return 'malformed';
    }
  }

  return {
    newImpressionId: () => randomString(IMP_BYTES, 'hex'),
    clickId: (tokenKey) => hmac(`click-id:${tokenKey}`).toString('base64url', 0, 12),
    signAnswer(shown) {
      if (shown.items.length > MAX_ITEMS) throw new Error(`an answer names at most ${MAX_ITEMS} items`);
      const w = writer.reset();
      head(w, shown);
      w.uint(shown.items.length);
      for (const it of shown.items) item(w, it);
      const materials = shown.materials ?? [];
      if (materials.length > MAX_ITEMS) throw new Error(`an answer names at most ${MAX_ITEMS} materials`);
      if (materials.length) {
        w.uint(materials.length);
        for (const id of materials) w.uint(id);
      }
      w.bytes(mac(w.done()));
      return w.done().toString('base64url');
    },
    read: open,
    readClick(token) {
      const dot = token.lastIndexOf('.');
      if (dot < 0 || dot === token.length - 1 || token.length - dot > 4) return 'malformed';
      const digits = token.slice(dot + 1);
      if (!/^\d+$/.test(digits)) return 'malformed';
      const payload = verified(token.slice(0, dot));
      if (typeof payload === 'string') return payload;
      // the bytes are ours (signed): read up to the clicked item, the rest of the answer is not the click's
      try {
        const r = new Reader(payload);
        const head = headOf(r);
        if (typeof head === 'string') return head;
        const position = Number(digits);
        if (position >= r.uint()) return 'malformed';
        for (let i = 0; i < position; i++) itemOf(r);
        const claim = head as ClickClaim;
        claim.position = position;
        claim.item = itemOf(r);
        return claim;
      } catch {
        return 'malformed';
      }
    },
    expired(issuedAt, nowMs = Date.now()) {
      return nowMs / 1000 > issuedAt + ttlSeconds;
    },
  };
}
