import { screen } from '@testing-library/react';
import { describe, expect, test, vi } from 'vitest';
import { mockApi } from '../test/fixtures.ts';
import { renderApp } from '../test/render.tsx';
import { CHUNK_LOAD_TIMEOUT, ChunkLoadError, lazyPage } from './lazy-page.ts';

describe('lazy route chunks', () => {
  test('the load timeout is two minutes', () => {
    expect(CHUNK_LOAD_TIMEOUT).toBe(120_000);
  });

  test('a chunk that never arrives fails with ChunkLoadError after the timeout', async () => {
    vi.useFakeTimers();
    try {
      const load = lazyPage(() => new Promise<{ Page: () => null }>(() => {}), 'Page');
      const pending = load();
      const failure = expect(pending).rejects.toBeInstanceOf(ChunkLoadError);
      await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT);
      await failure;
    } finally {
      vi.useRealTimers();
    }
  });

  test('a failed chunk shows the translated retry message with a Retry button', async () => {
    mockApi({});
    const routes = await import('../app/page-routes.tsx');
    const login = routes.pageRoutes.find((route) => route.path === 'login');
    const original = login?.lazy;
    if (login) {
      login.lazy = lazyPage(
        () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')),
        'X',
      );
    }
    try {
      renderApp('/login');
      expect(await screen.findByText('A part of the application could not be loaded')).toBeInTheDocument();
      expect(screen.getByText('Check your connection and try again')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Retry' })).toBeInTheDocument();
    } finally {
      if (login) login.lazy = original;
    }
  });
});
