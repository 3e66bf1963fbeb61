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
      const body = (await res.json().catch(() => ({}))) as { id?: string; error?: { message?: string } };
      if (!res.ok || !body.id)
        throw new Error(`Graph API answered ${res.status}: ${body.error?.message ?? 'no id'}`);
      return body.id;
    },
  };
}
