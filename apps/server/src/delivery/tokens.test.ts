import { describe, expect, test } from 'vitest';
import { clickToken, createTokenSigner, type Shown } from './tokens.ts';

const signer = createTokenSigner('a-secret-of-this-instance', 3600);
const shown = (): Shown => ({
  impressionId: signer.newImpressionId(),
  issuedAt: Math.floor(Date.now() / 1000),
  widgetId: 12,
  siteId: 3,
  visitorId: 'AbCdEfGhIjKlMnOpQrStUv',
  country: 'DE',
  device: 'mobile',
  os: 'android',
  browser: 'chrome',
  city: 'München',
  items: [
    { campaignId: 7, bannerId: 70, price: 250_000n },
    { campaignId: 2 ** 40, bannerId: 9, price: 1_000_000_000_000_000n },
  ],
});

describe('delivery tokens', () => {
  test('an answer token reads back exactly what was signed; its click tokens name one item each', () => {
    const s = shown();
    const token = signer.signAnswer(s);
    expect(signer.read(token)).toEqual(s);
    const { items, ...rest } = s;
    expect(signer.readClick(clickToken(token, 1))).toEqual({ ...rest, position: 1, item: items[1] });
    expect(signer.readClick(clickToken(token, 0))).toEqual({ ...rest, position: 0, item: items[0] });
    // a position the answer does not have, or none, is no click
    expect(signer.readClick(clickToken(token, 2))).toBe('malformed');
    expect(signer.readClick(token)).toBe('malformed');
    expect(signer.readClick(`${token}.`)).toBe('malformed');
    expect(signer.readClick(`${token}.-1`)).toBe('malformed');
    expect(signer.readClick(`${token}.1e0`)).toBe('malformed');
  });

  test("an answer's own materials read back; without them the token reads as before; a click names no material", () => {
    const s = { ...shown(), materials: [5, 2 ** 40, 0] };
    const token = signer.signAnswer(s);
    expect(signer.read(token)).toEqual(s);
    const { items, materials: _, ...rest } = s;
    expect(signer.readClick(clickToken(token, 0))).toEqual({ ...rest, position: 0, item: items[0] });
    // an empty list is left out of the token: the same bytes as an answer without materials
    const plain = shown();
    expect(signer.signAnswer({ ...plain, materials: [] })).toBe(signer.signAnswer(plain));
    expect(signer.read(signer.signAnswer(plain))).not.toHaveProperty('materials');
    // an answer of materials only
    const only = { ...shown(), items: [], materials: [9] };
    expect(signer.read(signer.signAnswer(only))).toEqual(only);
  });

  test('ids and prices read back exactly at every varint length, from one byte to the largest safe integer', () => {
    const sizes = [0, 127, 128, 2 ** 31 - 1, 2 ** 31, 2 ** 49 - 1, 2 ** 49, Number.MAX_SAFE_INTEGER];
    for (const n of sizes) {
      const s = { ...shown(), widgetId: n, siteId: n };
      s.items = [
        { campaignId: n, bannerId: 1, price: BigInt(n) },
        { campaignId: 1, bannerId: n, price: BigInt(n) * 1000n + 7n },
      ];
      const token = signer.signAnswer(s);
      expect(signer.read(token)).toEqual(s);
      expect(signer.readClick(clickToken(token, 1))).toMatchObject({ widgetId: n, item: s.items[1] });
    }
  });

  test("an item may carry its destination (an external feed's click URL)", () => {
    const s = shown();
    const url = `https://feed.example/click?u=${'x'.repeat(300)}`;
    s.items[0] = { ...s.items[0]!, url };
    const { items, ...rest } = s;
    const token = signer.signAnswer(s);
    expect(signer.readClick(clickToken(token, 0))).toEqual({ ...rest, position: 0, item: items[0] });
    expect(signer.read(token)).toEqual(s);
  });

  test('every altered character of the signed part is caught: forged or malformed, never read', () => {
    const token = signer.signAnswer(shown());
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      const altered = token.slice(0, i) + c + token.slice(i + 1);
      expect(['forged', 'malformed']).toContain(signer.read(altered));
      expect(['forged', 'malformed']).toContain(signer.readClick(clickToken(altered, 0)));
    }
  });

  test('another secret, garbage and truncation are refused', () => {
    const s = shown();
    const other = createTokenSigner('someone-elses-secret', 3600);
    expect(signer.read(other.signAnswer(s))).toBe('forged');
    expect(signer.readClick(clickToken(other.signAnswer(s), 0))).toBe('forged');
    expect(signer.readClick('not a token at all')).toBe('malformed');
    expect(signer.readClick('')).toBe('malformed');
    expect(signer.read('A'.repeat(20_000))).toBe('malformed');
    expect(signer.read('A'.repeat(500))).toBe('forged');
    const token = signer.signAnswer(s);
    expect(['forged', 'malformed']).toContain(signer.read(token.slice(0, -4)));
    expect(['forged', 'malformed']).toContain(signer.readClick(clickToken(token.slice(0, -4), 0)));
  });

  test('a token expires after its lifetime', () => {
    const issuedAt = Math.floor(Date.now() / 1000);
    expect(signer.expired(issuedAt)).toBe(false);
    expect(signer.expired(issuedAt, (issuedAt + 3601) * 1000)).toBe(true);
    expect(createTokenSigner('k', 0).expired(issuedAt - 1)).toBe(true);
  });

  test('tokens are short enough for URLs', () => {
    // an answer of six creatives: its click URLs stay well under what browsers and proxies take
    const s = shown();
    s.items = Array.from({ length: 6 }, (_, i) => ({
      campaignId: 1000 + i,
      bannerId: 50_000 + i,
      price: 120_000n,
    }));
    expect(clickToken(signer.signAnswer(s), 5).length).toBeLessThan(200);
  });
});
