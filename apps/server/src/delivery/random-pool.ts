import { randomBytes } from 'node:crypto';

const POOL_BYTES = 16 * 1024;
let pool = randomBytes(POOL_BYTES);
let at = 0;

/**
 * `bytes` random bytes from the operating system's CSPRNG as a string, read from a pool filled some
 * thousand ids at a time: ad requests name a visitor, an answer and a click each, and one `randomBytes`
 * call per id cost more than the rest of the id's work. Every byte is handed out once.
 * @example randomString(12, 'hex') // 24 hex digits
 */
export function randomString(bytes: number, encoding: 'hex' | 'base64url'): string {
  if (bytes > POOL_BYTES) return randomBytes(bytes).toString(encoding);
  if (at + bytes > POOL_BYTES) {
    pool = randomBytes(POOL_BYTES);
    at = 0;
  }
  const s = pool.toString(encoding, at, at + bytes);
  at += bytes;
  return s;
}
