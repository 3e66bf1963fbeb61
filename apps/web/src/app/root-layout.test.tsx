import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import {
  accountFixture,
  failure,
  json,
  loginAs,
  meFixture,
  mockApi,
  oauthFailure,
} from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';

describe('route guard', () => {
  test('a visitor opening a protected page goes to login with the page as redirect', async () => {
    mockApi({});
    const { router } = renderApp('/users/7?tab=payments');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/users/7?tab=payments');
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  test('a logged-in user without the right goes to not-authorized', async () => {
    loginAs('default', '7');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('default', '7')) });
    const { router } = renderApp('/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/pages/miscellaneous/not-authorized'));
    expect(await screen.findByRole('heading', { name: 'You are not authorized' })).toBeInTheDocument();
  });

  test('an admin may open the admin users list', async () => {
    loginAs('admin', '1');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('admin', '1')) });
    const { router } = renderApp('/users');
    expect(await screen.findByRole('heading', { name: 'Users' })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/users');
  });

  test('the root sends a logged-in user to their page and a visitor to login', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
    });
    const { router, unmount } = renderApp('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/users/7'));
    unmount();
  });

  test('unknown paths show the 404 page', async () => {
    mockApi({});
    renderApp('/no/such/page');
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  test('a 401 the refresh cannot fix sends the user to login with the previous path', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => failure(401, 'unauthorized'),
      'GET /api/users/7': () => failure(401, 'unauthorized'),
      'POST /api/auth/token': () => oauthFailure('invalid_grant', 'spent'),
    });
    const { router } = renderApp('/users/7');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(new URLSearchParams(router.state.location.search).get('redirect')).toBe('/users/7');
  });

  test('a navigation scrolls back to the top and sets the title of the new page', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
    });
    const scrollTo = vi.spyOn(window, 'scrollTo');
    const { router } = renderApp('/users/7');
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    await waitFor(() => expect(document.title).toBe('My account · AdPlatform'));
    scrollTo.mockClear();
    await act(() => router.navigate('/pages/miscellaneous/not-authorized'));
    expect(await screen.findByRole('heading', { name: 'You are not authorized' })).toBeInTheDocument();
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
    await waitFor(() => expect(document.title).toBe('You are not authorized · AdPlatform'));
    scrollTo.mockRestore();
  });

  test('the scroll-to-top button appears only after 250 px of scrolling', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/users/7': () => json(accountFixture()),
    });
    renderApp('/users/7');
    await screen.findByRole('heading', { name: 'Ada Lovelace' });
    const scrollTo = (y: number) => {
      Object.defineProperty(window, 'scrollY', { value: y, configurable: true });
      fireEvent.scroll(window);
    };
    scrollTo(250);
    expect(screen.queryByRole('button', { name: 'Scroll to top' })).toBeNull();
    scrollTo(251);
    expect(await screen.findByRole('button', { name: 'Scroll to top' })).toBeInTheDocument();
    scrollTo(0);
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Scroll to top' })).toBeNull());
  });
});
