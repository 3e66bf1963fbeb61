import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { baseURL } from './browser.ts';

/** A plain desktop Chrome: HeadlessChrome counts as a bot and gets no ads. */
export const DESKTOP_CHROME =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36';

/** An access token of this user through the API's password grant. */
export async function tokenOf(email: string, password: string): Promise<string> {
  const response = await fetch(`${baseURL()}/api/auth/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'password', username: email, password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status}`);
  return ((await response.json()) as { access_token: string }).access_token;
}

/** A call of the API as the token's user; anything but 2xx throws with the answer's text. */
export async function api<T = { _id: string }>(
  path: string,
  token: string,
  init: { method?: string; body?: unknown } = {},
): Promise<T> {
  const response = await fetch(`${baseURL()}/api${path}`, {
    method: init.method ?? 'GET',
    headers: {
      Authorization: `Bearer ${token}`,
      ...(init.body ? { 'Content-Type': 'application/json' } : {}),
    },
    body: init.body ? JSON.stringify(init.body) : undefined,
  });
  if (!response.ok)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${await response.text()}`);
  return (response.status === 204 ? {} : await response.json()) as T;
}

/** Starts a local server (a publisher's pages, a shop, a DSP) on a free loopback port; its port. */
export async function listen(server: Server): Promise<number> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}
