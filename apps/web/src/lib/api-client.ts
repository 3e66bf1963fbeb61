import type { FieldError, TokenResponse } from '@adp/contract';
import type { z } from 'zod';
import { clearCredentials, getAccessToken, getRefreshToken, saveCredentials } from './auth-storage.ts';
import { markMaintenance } from './maintenance.ts';

export const API_BASE = '/api';

/** An HTTP failure with the API's stable error code and, for 422, the field errors. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fieldErrors: FieldError[];

  constructor(status: number, code: string, message: string, fieldErrors: FieldError[] = []) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
}

/** The session is gone for good (no token, refresh refused): the app must go back to login. */
export class AuthExpiredError extends ApiError {
  constructor() {
    super(401, 'unauthorized', 'unauthorized');
    this.name = 'AuthExpiredError';
  }
}

interface ApiClientConfig {
  getLocale: () => string;
  /** Called once the stored credentials are dropped after an unrecoverable 401. */
  onAuthExpired: () => void;
}

const config: ApiClientConfig = {
  getLocale: () => localStorage.getItem('locale') ?? 'en',
  onAuthExpired: () => {
    const here = `${window.location.pathname}${window.location.search}`;
    window.location.assign(`/?redirect=${encodeURIComponent(here)}`);
  },
};

export function configureApiClient(next: Partial<ApiClientConfig>): void {
  Object.assign(config, next);
}

export interface RequestOptions<T> {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** JSON body. */
  json?: unknown;
  /** Form-encoded body (OAuth endpoints). */
  form?: Record<string, string>;
  /** multipart/form-data body (uploads); the browser sets the boundary. */
  multipart?: FormData;
  query?: Record<string, string | number | undefined>;
  /** Contract schema the answer must satisfy. */
  schema?: z.ZodType<T>;
  /** Send the bearer token and take part in the refresh queue. */
  auth?: boolean;
  /** A token not stored yet (the session being opened); no refresh is attempted with it. */
  bearer?: string;
  signal?: AbortSignal;
  /** The browser's HTTP cache mode (`no-cache`: ask the server even when a cached answer is fresh). */
  cache?: RequestCache;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

type Body = Record<string, unknown>;
const isBody = (body: unknown): body is Body => typeof body === 'object' && body !== null;
const isFieldError = (entry: unknown): entry is FieldError =>
  isBody(entry) &&
  typeof entry.field === 'string' &&
  typeof entry.detail === 'string' &&
  (entry.code === undefined || typeof entry.code === 'string');

/**
 * Error answers are read with plain checks of the contract's `validationErrorBody`, `oauthError` and
 * `errorBody` shapes: the client must not pull zod into the login page.
 */
function toApiError(status: number, body: unknown): ApiError {
  // the maintenance switch (only non-admins are answered so): the app shows the under-maintenance page
  if (status === 503 && isBody(body) && body.error === 'maintenance') markMaintenance();
  if (isBody(body) && Array.isArray(body.errors) && body.errors.every(isFieldError)) {
    const errors = body.errors as FieldError[];
    return new ApiError(status, 'validation', errors[0]?.detail ?? '', errors);
  }
  if (isBody(body) && typeof body.error === 'string' && typeof body.error_description === 'string')
    return new ApiError(status, body.error, body.error_description);
  if (isBody(body) && typeof body.error === 'string') {
    if (body.message === undefined) return new ApiError(status, body.error, body.error);
    if (typeof body.message === 'string') return new ApiError(status, body.error, body.message);
  }
  return new ApiError(status, 'generic', `HTTP ${status}`);
}

let refreshing: Promise<string> | null = null;

/**
 * Only the request that finds a session to end reports it: requests that start after the credentials
 * were dropped (a page's later query) must not send the user away a second time.
 */
function expireSession(): never {
  const hadSession = getAccessToken() !== null || getRefreshToken() !== null;
  clearCredentials();
  if (hadSession) config.onAuthExpired();
  throw new AuthExpiredError();
}

async function requestRefresh(refreshToken: string): Promise<string> {
  let tokens: TokenResponse;
  try {
    const response = await fetch(`${API_BASE}/auth/token`, {
      method: 'POST',
      headers: {
        Accept: 'application/json',
        'Accept-Language': config.getLocale(),
        'Content-Type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: refreshToken }),
    });
    // under maintenance the session is kept for when it ends; the app shows the maintenance page meanwhile
    if (response.status === 503) throw toApiError(503, await readBody(response));
    if (!response.ok) expireSession();
    // Only a logged-in dashboard refreshes, and its pages have loaded the contract already.
    const { tokenResponse } = await import('@adp/contract');
    const parsed = tokenResponse.safeParse(await readBody(response));
    if (!parsed.success || !parsed.data.refresh_token) expireSession();
    tokens = parsed.data;
  } catch (error) {
    if (error instanceof AuthExpiredError || (error instanceof ApiError && error.status === 503)) throw error;
    expireSession();
  }
  saveCredentials(tokens);
  return tokens.access_token;
}

/**
 * Every request that meets a 401 waits for the same refresh, so a burst of requests spends the
 * (single-use, rotating) refresh token only once.
 */
function refreshAccessToken(): Promise<string> {
  if (!refreshing) {
    const refreshToken = getRefreshToken();
    if (!getAccessToken() || !refreshToken) return Promise.resolve().then(expireSession);
    refreshing = requestRefresh(refreshToken).finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

function buildUrl(path: string, query: RequestOptions<unknown>['query']): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined) params.set(key, String(value));
  }
  const search = params.toString();
  return `${API_BASE}${path}${search ? `?${search}` : ''}`;
}

async function send(path: string, options: RequestOptions<unknown>, token: string | null): Promise<Response> {
  const headers: Record<string, string> = {
    Accept: 'application/json',
    'Accept-Language': config.getLocale(),
  };
  let body: BodyInit | undefined;
  if (options.form) {
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
    body = new URLSearchParams(options.form);
  } else if (options.multipart) {
    body = options.multipart;
  } else if (options.json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(options.json);
  }
  if (token) headers.Authorization = `Bearer ${token}`;
  return fetch(buildUrl(path, options.query), {
    method: options.method ?? (body ? 'POST' : 'GET'),
    headers,
    body,
    signal: options.signal,
    ...(options.cache ? { cache: options.cache } : {}),
  });
}

/** Sends a request with the session's token (unless told otherwise), refreshing it once on a 401. */
async function sendWithSession(path: string, options: RequestOptions<unknown>): Promise<Response> {
  const auth = (options.auth ?? true) && options.bearer === undefined;
  const token = options.bearer ?? (auth ? getAccessToken() : null);
  if (auth && !token) expireSession();
  let response = await send(path, options, token);
  if (auth && response.status === 401) {
    const current = getAccessToken();
    // Another request may already have refreshed while this one was in flight.
    const fresh = current && current !== token ? current : await refreshAccessToken();
    response = await send(path, options, fresh);
    if (response.status === 401) expireSession();
  }
  return response;
}

/**
 * Downloads a file answer (an export) with the bearer token, which a plain link cannot send: its bytes
 * and the file name of its Content-Disposition (or `fallback`). Errors are ApiErrors as for apiRequest.
 * @example const { blob, filename } = await apiDownload('/reportsexport', { query: { type: 'sites', format: 'csv' } })
 */
export async function apiDownload(
  path: string,
  options: Pick<RequestOptions<unknown>, 'query' | 'signal'> & { fallback?: string } = {},
): Promise<{ blob: Blob; filename: string }> {
  const response = await sendWithSession(path, options);
  if (!response.ok) throw toApiError(response.status, await readBody(response));
  const disposition = response.headers.get('content-disposition') ?? '';
  const filename = /filename="([^"]+)"/.exec(disposition)?.[1] ?? options.fallback ?? 'download';
  return { blob: await response.blob(), filename };
}

/** Hands a downloaded file to the browser as a download. */
export function saveFile({ blob, filename }: { blob: Blob; filename: string }): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = filename;
  document.body.append(link);
  link.click();
  link.remove();
  // the click has handed the blob to the download; give the browser a moment before letting it go
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/**
 * Calls the API and parses the answer with the contract schema.
 * @example await apiRequest(`/users/${id}`, { schema: account })
 */
export async function apiRequest<T = unknown>(path: string, options: RequestOptions<T> = {}): Promise<T> {
  const response = await sendWithSession(path, options);
  const body = await readBody(response);
  if (!response.ok) throw toApiError(response.status, body);
  if (!options.schema) return body as T;
  const parsed = options.schema.safeParse(body);
  if (!parsed.success) {
    console.error(`Unexpected answer from ${path}`, parsed.error.issues);
    throw new ApiError(response.status, 'generic', 'unexpected answer');
  }
  return parsed.data;
}
