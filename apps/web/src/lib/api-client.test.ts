import { account } from '@adp/contract';
import { beforeEach, describe, expect, test, vi } from 'vitest';
import {
  accountFixture,
  failure,
  json,
  loginAs,
  meFixture,
  mockApi,
  oauthFailure,
  tokenFixture,
  validationFailure,
} from '../test/fixtures.ts';
import { ApiError, AuthExpiredError, apiRequest, configureApiClient } from './api-client.ts';
import { getAccessToken, getAuthSnapshot, storageKeys } from './auth-storage.ts';

const onAuthExpired = vi.fn();

beforeEach(() => {
  onAuthExpired.mockReset();
  configureApiClient({ getLocale: () => 'de', onAuthExpired });
});

describe('api client', () => {
  test('sends the bearer token, Accept-Language and parses the answer with the schema', async () => {
    loginAs('default');
    const api = mockApi({ 'GET /api/users/7': () => json(accountFixture()) });
    const user = await apiRequest('/users/7', { schema: account });
    expect(user.name).toBe('Ada Lovelace');
    expect(api.calls[0]?.headers.get('Authorization')).toBe('Bearer access-1');
    expect(api.calls[0]?.headers.get('Accept-Language')).toBe('de');
    expect(api.calls[0]?.headers.get('Accept')).toBe('application/json');
  });

  test('two requests failing with 401 share one refresh and are both replayed with the new token', async () => {
    loginAs('default');
    let releaseRefresh: () => void = () => {};
    const refreshGate = new Promise<void>((resolve) => {
      releaseRefresh = resolve;
    });
    const authorised = (request: { headers: Headers }) =>
      request.headers.get('Authorization') === 'Bearer access-2';
    const api = mockApi({
      'GET /api/users/7': (request) =>
        authorised(request) ? json(accountFixture()) : failure(401, 'unauthorized'),
      'GET /api/auth/me': (request) =>
        authorised(request) ? json(meFixture('default', '7')) : failure(401, 'unauthorized'),
      'POST /api/auth/token': async (request) => {
        await refreshGate;
        const form = new URLSearchParams(request.body);
        expect(form.get('grant_type')).toBe('refresh_token');
        expect(form.get('refresh_token')).toBe('refresh-1');
        return json(tokenFixture('default', '7', '2'));
      },
    });

    const first = apiRequest('/users/7', { schema: account });
    const second = apiRequest('/auth/me');
    await vi.waitFor(() => expect(api.calls.filter((c) => c.path === '/api/auth/token')).toHaveLength(1));
    releaseRefresh();
    const [user, me] = await Promise.all([first, second]);

    expect(user._id).toBe('7');
    expect(me).toEqual(meFixture('default', '7'));
    expect(api.calls.filter((c) => c.path === '/api/auth/token')).toHaveLength(1);
    const replays = api.calls.filter((c) => c.path !== '/api/auth/token' && authorised(c));
    expect(replays.map((c) => c.path).sort()).toEqual(['/api/auth/me', '/api/users/7']);
    expect(getAccessToken()).toBe('access-2');
    expect(localStorage.getItem(storageKeys.refreshToken)).toBe('refresh-2');
  });

  test('a 401 without a stored refresh token clears every stored credential', async () => {
    loginAs('default');
    localStorage.removeItem(storageKeys.refreshToken);
    const api = mockApi({ 'GET /api/users/7': () => failure(401, 'unauthorized') });

    await expect(apiRequest('/users/7')).rejects.toBeInstanceOf(AuthExpiredError);

    for (const key of Object.values(storageKeys)) expect(localStorage.getItem(key)).toBeNull();
    expect(getAuthSnapshot().accessToken).toBeNull();
    expect(api.calls.some((c) => c.path === '/api/auth/token')).toBe(false);
    expect(onAuthExpired).toHaveBeenCalledOnce();
  });

  test('a request without an access token clears credentials and never reaches the API', async () => {
    localStorage.setItem(storageKeys.refreshToken, 'refresh-1');
    localStorage.setItem(storageKeys.role, 'admin');
    const api = mockApi({});
    await expect(apiRequest('/users/7')).rejects.toBeInstanceOf(AuthExpiredError);
    expect(localStorage.getItem(storageKeys.refreshToken)).toBeNull();
    expect(localStorage.getItem(storageKeys.role)).toBeNull();
    expect(api.calls).toHaveLength(0);
  });

  test('a refused refresh clears credentials and sends the user back with a redirect', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/users/1': () => failure(401, 'unauthorized'),
      'POST /api/auth/token': () => oauthFailure('invalid_grant', 'spent'),
    });
    await expect(apiRequest('/users/1')).rejects.toBeInstanceOf(AuthExpiredError);
    expect(getAccessToken()).toBeNull();
    expect(localStorage.getItem(storageKeys.ability)).toBeNull();
    expect(onAuthExpired).toHaveBeenCalledOnce();
  });

  test('a refresh answer without a refresh token ends the session', async () => {
    loginAs('default');
    mockApi({
      'GET /api/users/7': () => failure(401, 'unauthorized'),
      'POST /api/auth/token': () => json({ ...tokenFixture('default', '7', '2'), refresh_token: '' }),
    });
    await expect(apiRequest('/users/7')).rejects.toBeInstanceOf(AuthExpiredError);
    expect(getAccessToken()).toBeNull();
    expect(onAuthExpired).toHaveBeenCalledOnce();
  });

  test('a 422 answer becomes an ApiError carrying every field error', async () => {
    mockApi({
      'POST /api/auth/register': () =>
        validationFailure([
          { field: 'email', detail: 'This email is already registered', code: 'email_taken' },
          { field: 'name', detail: 'Name can\u2019t be blank' },
        ]),
    });
    const failure = await apiRequest('/auth/register', { auth: false, json: {} }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).status).toBe(422);
    expect((failure as ApiError).fieldErrors.map((e) => e.field)).toEqual(['email', 'name']);
  });
});
