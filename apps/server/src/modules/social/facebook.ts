/**
 * The few Graph API calls autopublishing needs. The base URL is configurable (FACEBOOK_GRAPH_URL), so
 * tests run against a local server that plays the Graph API.
 */
export interface FacebookClient {
  /** True when the token may publish on the page (the page answers and lists a content task). */
  canPublish(pageId: string, token: string): Promise<boolean>;
  /** Posts a link with a message; answers the post id. */
  post(pageId: string, token: string, message: string, link: string): Promise<string>;
}

/**
 * A post the Graph API refused. `articleOnly`: it refused this article (a 400 for a parameter, such as a
 * link it will not share), not the page, the token or the rate, so the next article may still go.
 */
export class FacebookPostError extends Error {
  constructor(
    message: string,
    readonly articleOnly: boolean,
  ) {
    super(message);
  }
}

/**
 * Refusals of one article: a parameter of this post (code 100, as for a link Facebook will not share; not
 * subcode 33, an object that does not exist: the page itself) or a duplicate post (506). Anything else
 * (the token, the page, permissions, blocks, rate limits) stops the run and the article is tried again.
 */
const articleRefusal = (code: number | undefined, subcode: number | undefined) =>
  (code === 100 && subcode !== 33) || code === 506;

export function facebookClient(baseUrl: string, timeoutMs = 10_000): FacebookClient {
  const base = baseUrl.replace(/\/+$/, '');
  return {
    async canPublish(pageId, token) {
      if (!token) return false;
      try {
        const url = `${base}/${encodeURIComponent(pageId)}?fields=id,name,tasks&access_token=${encodeURIComponent(token)}`;
        const res = await fetch(url, { signal: AbortSignal.timeout(timeoutMs) });
        if (!res.ok) return false;
        const body = (await res.json()) as { id?: string; tasks?: string[] };
        return (
          body.id === pageId &&
          Array.isArray(body.tasks) &&
          body.tasks.some((t) => t === 'CREATE_CONTENT' || t === 'MANAGE')
        );
      } catch {
        return false;
      }
    },
    async post(pageId, token, message, link) {
      const res = await fetch(`${base}/${encodeURIComponent(pageId)}/feed`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ message, link, access_token: token }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      const body = (await res.json().catch(() => ({}))) as {
        id?: string;
        error?: { message?: string; code?: number; error_subcode?: number };
      };
      if (!res.ok || !body.id) {
        const articleOnly = res.status === 400 && articleRefusal(body.error?.code, body.error?.error_subcode);
        throw new FacebookPostError(
          `Graph API answered ${res.status}: ${body.error?.message ?? 'no id'}`,
          articleOnly,
        );
      }
      return body.id;
    },
  };
}
