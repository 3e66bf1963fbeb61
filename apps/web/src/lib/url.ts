/**
 * The path (and query) of an absolute URL, to show or to load from the dashboard's own origin (the server
 * that answers the dashboard answers PUBLIC_URL's paths too); a string that is not a URL comes back as it is.
 * @example pathOf('https://adp.example/l/free-trial-9') // '/l/free-trial-9'
 */
export function pathOf(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.pathname}${parsed.search}`;
  } catch {
    return url;
  }
}

/**
 * Where publishers' pages and advertisers' servers reach this ad server: PUBLIC_URL, which the server
 * writes into the page (a dashboard opened at another host name, or the development server, would
 * otherwise hand out its own).
 */
export function servingOrigin(): string {
  const named = document.querySelector<HTMLMetaElement>('meta[name="adp-public-url"]')?.content;
  return named || window.location.origin;
}
