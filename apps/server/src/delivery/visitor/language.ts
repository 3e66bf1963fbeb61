/**
 * The browser language of an Accept-Language header: the primary subtag, lower case, of the entry with the
 * highest weight (the first of equals), among entries that are two-letter ISO 639-1 codes (the contract's
 * `languageCode`). `*`, `q=0` and unreadable entries are skipped. Null when nothing is left.
 * @example browserLanguage('en-US;q=0.8, de-CH, fr;q=0.9') // 'de'
 */
export function browserLanguage(header: string | undefined | null): string | null {
  if (!header) return null;
  let best: string | null = null;
  let bestQ = 0;
  for (const entry of header.slice(0, 1000).split(',')) {
    const [tag = '', ...params] = entry.split(';');
    const primary = (tag.trim().split('-')[0] ?? '').toLowerCase();
    if (!/^[a-z]{2}$/.test(primary)) continue;
    let q = 1;
    for (const param of params) {
      const m = /^\s*q\s*=(.*)$/i.exec(param);
      if (m) q = Number(m[1]?.trim() || 'NaN'); // an unreadable weight loses
    }
    if (!(q > bestQ) || q > 1) continue;
    best = primary;
    bestQ = q;
    if (q === 1) break; // nothing outweighs the first full-weight entry
  }
  return best;
}
