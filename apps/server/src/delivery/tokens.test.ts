import { describe, expect, test } from 'vitest';
import { createTokenSigner, type Shown } from './tokens.ts';

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
  items: [
    { campaignId: 7, bannerId: 70, price: 250_000n },
    { campaignId: 2 ** 40, bannerId: 9, price: 1_000_000_000_000_000n },
  ],
});

describe('delivery tokens', () => {
  test('an impression token and a click token read back exactly what was signed', () => {
    const s = shown();
    expect(signer.read('impression', signer.sign('impression', s))).toEqual(s);
    const { items, ...rest } = s;
    expect(signer.readClick(signer.signClick(s, 1))).toEqual({ ...rest, position: 1, item: items[1] });
  });

  test('ids and prices read back exactly at every varint length, from one byte to the largest safe integer', () => {
    const sizes = [0, 127, 128, 2 ** 31 - 1, 2 ** 31, 2 ** 49 - 1, 2 ** 49, Number.MAX_SAFE_INTEGER];
    for (const n of sizes) {
      const s = { ...shown(), widgetId: n, siteId: n };
      s.items = [
        { campaignId: n, bannerId: 1, price: BigInt(n) },
        { campaignId: 1, bannerId: n, price: BigInt(n) * 1000n + 7n },
      ];
      expect(signer.read('impression', signer.sign('impression', s))).toEqual(s);
      // every token of one answer shares its head: a view token of the same answer is still a view token
      expect(signer.read('view', signer.sign('view', s))).toEqual(s);
      expect(signer.read('impression', signer.sign('view', s))).toBe('wrong_kind');
      expect(signer.readClick(signer.signClick(s, 1))).toMatchObject({ widgetId: n, item: s.items[1] });
    }
  });

  test("a click token may carry its destination (an external feed's click URL)", () => {
    const s = shown();
    const url = `https://feed.example/click?u=${'x'.repeat(300)}`;
    s.items[0] = { ...s.items[0]!, url };
    const { items, ...rest } = s;
    expect(signer.readClick(signer.signClick(s, 0))).toEqual({ ...rest, position: 0, item: items[0] });
    // impression tokens never carry it
    expect(signer.read('impression', signer.sign('impression', s))).toEqual({
      ...s,
      items: [{ campaignId: 7, bannerId: 70, price: 250_000n }, s.items[1]],
    });
  });

  test('every altered character is caught: forged or malformed, never read', () => {
    const token = signer.signClick(shown(), 0);
    for (let i = 0; i < token.length; i++) {
      const c = token[i] === 'A' ? 'B' : 'A';
      const altered = token.slice(0, i) + c + token.slice(i + 1);
      expect(['forged', 'malformed']).toContain(signer.readClick(altered));
    }
  });

  test('another secret, another kind, garbage and truncation are refused', () => {
    const s = shown();
    const other = createTokenSigner('someone-elses-secret', 3600);
    expect(signer.readClick(other.signClick(s, 0))).toBe('forged');
    expect(signer.read('view', signer.sign('impression', s))).toBe('wrong_kind');
    expect(signer.readClick(signer.sign('impression', s))).toBe('wrong_kind');
    expect(signer.readClick('not a token at all')).toBe('malformed');
    expect(signer.readClick('')).toBe('malformed');
    expect(signer.readClick('A'.repeat(9000))).toBe('malformed');
    expect(signer.readClick('A'.repeat(500))).toBe('forged');
    const token = signer.signClick(s, 0);
    expect(['forged', 'malformed']).toContain(signer.readClick(token.slice(0, -4)));
  });

  test('a token expires after its lifetime', () => {
    const issuedAt = Math.floor(Date.now() / 1000);
    expect(signer.expired(issuedAt)).toBe(false);
    expect(signer.expired(issuedAt, (issuedAt + 3601) * 1000)).toBe(true);
    expect(createTokenSigner('k', 0).expired(issuedAt - 1)).toBe(true);
  });

  test('tokens are short enough for URLs', () => {
    expect(signer.signClick(shown(), 0).length).toBeLessThan(120);
  });
});
