/**
 * A URL as a `Location` header can carry it: one with characters outside printable ASCII (a Cyrillic path,
 * an IDN host, a space in a UTM value) written the way a browser sends it (percent-encoded, punycode);
 * anything else as it is, so a URL that is already plain keeps its exact text.
 * @example headerUrl('https://shop.example/обувь') // 'https://shop.example/%D0%BE%D0%B1%D1%83%D0%B2%D1%8C'
 */
export function headerUrl(url: string): string {
  if (!/[^\x21-\x7e]/.test(url)) return url;
  try {
    return new URL(url).href;
  } catch {
    return encodeURI(url);
  }
}
