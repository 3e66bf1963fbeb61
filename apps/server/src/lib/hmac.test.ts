import { createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { hmacSha256 } from './hmac';

describe('hmacSha256', () => {
  it('gives the bytes of createHmac for short, block-sized and long keys and messages', () => {
    for (const keyLength of [0, 1, 32, 63, 64, 65, 200]) {
      const key = randomBytes(keyLength);
      const mac = hmacSha256(key);
      // growing past the first buffer, then shorter again: no byte of a longer message may linger
      for (const size of [0, 1, 55, 64, 119, 1_000, 5_000, 17, 0]) {
        const data = randomBytes(size);
        expect(mac(data).equals(createHmac('sha256', key).update(data).digest())).toBe(true);
      }
    }
  });

  it('reads strings as UTF-8, as createHmac does', () => {
    const mac = hmacSha256('sécret key');
    for (const text of ['', 'rtb:abc', 'ünïcødé ✓ '.repeat(300)])
      expect(mac(text).equals(createHmac('sha256', 'sécret key').update(text).digest())).toBe(true);
  });

  it('RFC 4231 test case 2', () => {
    expect(hmacSha256('Jefe')('what do ya want for nothing?').toString('hex')).toBe(
      '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
    );
  });
});
