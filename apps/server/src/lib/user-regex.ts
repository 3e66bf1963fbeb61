import { RE2 } from 're2-wasm';

/**
 * Regular expressions that users type (a site's URL mask, the parser's masks) run here, on RE2: matching
 * time is linear in the input, so a pattern like `(a+)+$` cannot hold the event loop. RE2 has no
 * backreferences and no lookaround; such patterns are refused when saved (`userRegexSupported`).
 *
 * re2-wasm keeps compiled patterns in a fixed 16 MB WebAssembly heap that the garbage collector does not
 * see, so compiled patterns are cached (few distinct masks exist) and freed when they leave the cache,
 * and the text a pattern runs on is capped.
 */

/** Longer texts are cut: the wasm heap must hold the text as UTF-8 besides the compiled patterns. */
export const USER_REGEX_MAX_INPUT = 1_000_000;
const CACHE_SIZE = 64;
const cache = new Map<string, RE2>();

function free(re: RE2) {
  (re as unknown as { wrapper?: { delete?: () => void } }).wrapper?.delete?.();
}

function compiled(pattern: string, ignoreCase: boolean): RE2 {
  const key = `${ignoreCase ? 'i' : '-'}${pattern}`;
  const hit = cache.get(key);
  if (hit) {
    // Map order is insertion order: moving the hit to the end makes the first entry the least recent
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const re = new RE2(pattern, ignoreCase ? 'iu' : 'u');
  if (cache.size >= CACHE_SIZE) {
    const oldest = cache.entries().next().value;
    if (oldest) {
      cache.delete(oldest[0]);
      free(oldest[1]);
    }
  }
  cache.set(key, re);
  return re;
}

/** Whether RE2 can run the pattern (it cannot run backreferences or lookaround). */
export function userRegexSupported(pattern: string): boolean {
  try {
    free(new RE2(pattern, 'u'));
    return true;
  } catch {
    return false;
  }
}

export interface UserRegexOptions {
  ignoreCase?: boolean;
}

/**
 * The first match with its groups, or null; also null when the pattern cannot be compiled (a stored
 * pattern from before RE2 was required must not break a parse run).
 */
export function userRegexExec(
  pattern: string,
  text: string,
  opts: UserRegexOptions = {},
): (string | undefined)[] | null {
  let re: RE2;
  try {
    re = compiled(pattern, opts.ignoreCase ?? false);
  } catch {
    return null;
  }
  const m = re.exec(text.length > USER_REGEX_MAX_INPUT ? text.slice(0, USER_REGEX_MAX_INPUT) : text);
  return m ? Array.from(m) : null;
}

/** Whether the pattern matches somewhere in the text; false for a pattern RE2 cannot compile. */
export function userRegexTest(pattern: string, text: string, opts: UserRegexOptions = {}): boolean {
  return userRegexExec(pattern, text, opts) !== null;
}
