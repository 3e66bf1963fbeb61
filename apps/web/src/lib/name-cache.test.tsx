import { campaignNamesAnswer, namesAnswer } from '@adp/contract';
import { render, screen, within } from '@testing-library/react';
import { beforeEach, describe, expect, test } from 'vitest';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { json, loginAs, mockApi, validationFailure } from '../test/fixtures.ts';
import { createNameCache, NAME_CACHE_TTL, type NameCache, useNames } from './name-cache.ts';

const bodyIds = (body: string) => (JSON.parse(body) as { ids: string[] }).ids;
const sitesAnswer = (ids: string[]) =>
  json(namesAnswer.parse({ items: ids.map((id) => ({ _id: id, name: `Site ${id}` })) }));

function SiteNames({ ids, cache }: { ids: string[]; cache: NameCache }) {
  const names = useNames('sites', ids, '', cache);
  return (
    <ul>
      {ids.map((id) => (
        <li key={id}>{names.get(id)?.name ?? `#${id}`}</li>
      ))}
    </ul>
  );
}

describe('name cache', () => {
  beforeEach(() => loginAs('admin', '1'));

  test('ids asked for in the same tick go out as one lookup; known names are not asked again', async () => {
    const api = mockApi({ 'POST /api/sites/names': (r) => sitesAnswer(bodyIds(r.body)) });
    const cache = createNameCache();
    await Promise.all([cache.request('sites', ['1', '2']), cache.request('sites', ['2', '3'])]);
    expect(api.calls).toHaveLength(1);
    expect(bodyIds(api.calls[0]!.body).sort()).toEqual(['1', '2', '3']);
    expect(cache.peek('sites', '3')?.name).toBe('Site 3');
    await cache.request('sites', ['1', '3']);
    expect(api.calls).toHaveLength(1);
  });

  test('a name is fetched again after an hour; partner names never expire', async () => {
    const api = mockApi({
      'POST /api/campaigns/names': (r) =>
        json(
          campaignNamesAnswer.parse({
            items: bodyIds(r.body).map((id) => ({
              _id: id,
              name: `C${api.calls.length}`,
              user_id: '9',
              currency: 'EUR',
            })),
          }),
        ),
      'POST /api/partners/names': (r) =>
        json(namesAnswer.parse({ items: bodyIds(r.body).map((id) => ({ _id: id, name: 'Acme' })) })),
    });
    let clock = 1_000_000;
    const cache = createNameCache(() => clock);
    await cache.request('campaigns', ['5']);
    await cache.request('partners', ['8']);
    expect(cache.peek('campaigns', '5')).toMatchObject({ name: 'C1', currency: 'EUR', user_id: '9' });
    clock += NAME_CACHE_TTL - 1;
    await cache.request('campaigns', ['5']);
    expect(api.calls).toHaveLength(2);
    clock += 2;
    expect(cache.isFresh('campaigns', '5')).toBe(false);
    // the old name is still shown while the new one comes
    expect(cache.peek('campaigns', '5')?.name).toBe('C1');
    await cache.request('campaigns', ['5']);
    expect(api.calls).toHaveLength(3);
    expect(cache.peek('campaigns', '5')?.name).toBe('C3');
    clock += 100 * NAME_CACHE_TTL;
    await cache.request('partners', ['8']);
    expect(api.calls.filter((c) => c.path === '/api/partners/names')).toHaveLength(1);
  });

  test('a table of rows shows the names of one lookup', async () => {
    const api = mockApi({ 'POST /api/sites/names': (r) => sitesAnswer(bodyIds(r.body)) });
    const cache = createNameCache();
    render(
      <AppProviders queryClient={createQueryClient()} env="test">
        <SiteNames ids={['4', '5', '4']} cache={cache} />
      </AppProviders>,
    );
    expect(await screen.findByText('Site 5')).toBeInTheDocument();
    expect(screen.getAllByText('Site 4')).toHaveLength(2);
    expect(api.calls).toHaveLength(1);
  });

  test('a 422 shows each error as a red toast titled Error, once, and the ids stay as they are', async () => {
    const api = mockApi({
      'POST /api/sites/names': () =>
        validationFailure([
          { field: 'ids', detail: 'Unknown id or one you may not see: 41', code: 'unknown_id' },
          { field: 'ids', detail: 'Unknown id or one you may not see: 42', code: 'unknown_id' },
        ]),
    });
    const cache = createNameCache();
    const { rerender } = render(
      <AppProviders queryClient={createQueryClient()} env="test">
        <SiteNames ids={['41', '42']} cache={cache} />
      </AppProviders>,
    );
    const toasts = await screen.findAllByRole('alert');
    const errors = toasts.filter((toast) => within(toast).queryByText('Error'));
    expect(errors).toHaveLength(2);
    for (const toast of errors) expect(toast.getAttribute('style')).toContain('--mantine-color-red');
    expect(within(errors[0]!).getByText('Unknown id or one you may not see: 41')).toBeInTheDocument();
    expect(within(errors[1]!).getByText('Unknown id or one you may not see: 42')).toBeInTheDocument();
    expect(screen.getByText('#41')).toBeInTheDocument();
    rerender(
      <AppProviders queryClient={createQueryClient()} env="test">
        <SiteNames ids={['42', '41']} cache={cache} />
      </AppProviders>,
    );
    await new Promise((r) => setTimeout(r, 50));
    expect(api.calls).toHaveLength(1);
  });
});
