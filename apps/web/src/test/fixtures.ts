import {
  type Account,
  account,
  errorBody,
  type FieldError,
  meResponse,
  oauthError,
  type Role,
  tokenResponse,
  validationErrorBody,
} from '@adp/contract';
import { defineRulesFor } from '@adp/permissions';
import { vi } from 'vitest';
import { saveAbility, saveCredentials } from '../lib/auth-storage.ts';

/** Mocked answers are parsed with the contract schemas so they cannot drift from the API. */
export function accountFixture(overrides: Partial<Account> = {}): Account {
  return account.parse({
    _id: '7',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    phone: '',
    role: 'default',
    balance: 12.5,
    currency: 'USD',
    notes: '',
    affiliate_id: '',
    affiliate_url: '',
    earn_percent: 0,
    locale: 'en',
    created_at: '2026-01-01T00:00:00.000Z',
    owns: { pixels: 0, agencies: 0 },
    ...overrides,
  });
}

export function tokenFixture(role: Role = 'default', userId = '7', suffix = '1') {
  return tokenResponse.parse({
    access_token: `access-${suffix}`,
    refresh_token: `refresh-${suffix}`,
    token_type: 'Bearer',
    expires_in: 900,
    user_id: userId,
    role,
  });
}

export function meFixture(role: Role = 'default', userId = '7') {
  return meResponse.parse({
    account: accountFixture({ _id: userId, role }),
    ability: defineRulesFor({ id: userId, role }),
  });
}

/** Puts a logged-in session into localStorage the way login leaves it. */
export function loginAs(role: Role, userId = '7'): void {
  saveCredentials(tokenFixture(role, userId));
  saveAbility(meFixture(role, userId).ability);
}

/** `400 {error, error_description}` of the token endpoint. */
export function oauthFailure(
  error = 'invalid_grant',
  description = 'Invalid username or password',
): Response {
  return json(oauthError.parse({ error, error_description: description }), 400);
}

/** Any non-validation failure: 401, 403, 404, 500... */
export function failure(status: number, error: string, message?: string): Response {
  return json(errorBody.parse({ error, message }), status);
}

/** `422 {errors: [...]}`. */
export function validationFailure(errors: FieldError[]): Response {
  return json(validationErrorBody.parse({ errors }), 422);
}

export interface MockRequest {
  method: string;
  path: string;
  /** The query string's parameters. */
  query: URLSearchParams;
  headers: Headers;
  body: string;
  /** The browser's HTTP cache mode asked for (undefined: the default, a fresh cached answer may do). */
  cache?: RequestCache;
}

type Handler = (request: MockRequest) => Response | Promise<Response>;

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Replaces fetch with a table of `METHOD /path` handlers and records every call.
 * @example const api = mockApi({ 'GET /api/auth/me': () => json(meFixture()) });
 */
export function mockApi(handlers: Record<string, Handler>) {
  const calls: MockRequest[] = [];
  const fetchMock = async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const request: MockRequest = {
      method: init.method ?? 'GET',
      path: url.pathname,
      query: url.searchParams,
      headers: new Headers(init.headers),
      body: init.body ? String(init.body) : '',
      cache: init.cache,
    };
    calls.push(request);
    const handler = handlers[`${request.method} ${request.path}`];
    if (!handler) return failure(404, 'not_found', 'Data not found.');
    return handler(request);
  };
  vi.stubGlobal('fetch', fetchMock);
  return { calls };
}
