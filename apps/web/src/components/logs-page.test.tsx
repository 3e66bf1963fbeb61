import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, expect, test, vi } from 'vitest';
import { AppProviders } from '../app/providers.tsx';
import { createQueryClient } from '../app/query-client.ts';
import { json, loginAs, mockApi } from '../test/fixtures.ts';
import { LogsPage } from './logs-page.tsx';

afterEach(() => {
  vi.restoreAllMocks();
});

const log = (id: string, action: string, changes: unknown[], user_name: string | null = 'Ann Admin') => ({
  _id: id,
  entity_type: 'partner',
  entity_id: '5',
  action,
  user_id: user_name ? '1' : null,
  user_name,
  changes,
  created_at: '2026-11-20T10:00:00.000Z',
});

test('shows one row per changed field with who, action, before and after, and pages on the server', async () => {
  loginAs('admin', '1');
  const api = mockApi({
    'GET /api/partners/5/logs': (req) =>
      json({
        items:
          req.query.get('page') === '2'
            ? [log('1', 'create', [{ field: 'title', before: null, after: 'Group A' }], null)]
            : [
                log('3', 'update', [
                  { field: 'agency_rate', before: 10, after: 12.5 },
                  { field: 'showlogo', before: true, after: false },
                ]),
              ],
        total: 21,
        page: Number(req.query.get('page')),
        limit: 20,
      }),
  });
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <MemoryRouter>
        <LogsPage path="/partners/5/logs" title="Group A: change log" fieldLabel={(f) => `label:${f}`} />
      </MemoryRouter>
    </AppProviders>,
  );
  const table = await screen.findByRole('table', { name: 'Group A: change log' });
  const rate = (await within(table).findByText('label:agency_rate')).closest('tr')!;
  expect(within(rate).getByText('Ann Admin')).toBeInTheDocument();
  expect(within(rate).getByText('Changed')).toBeInTheDocument();
  expect(within(rate).getByText('10')).toBeInTheDocument();
  expect(within(rate).getByText('12.5')).toBeInTheDocument();
  const logo = within(table).getByText('label:showlogo').closest('tr')!;
  expect(within(logo).getByText('Yes')).toBeInTheDocument();
  expect(within(logo).getByText('No')).toBeInTheDocument();
  expect(api.calls[0]?.query.get('limit')).toBe('20');

  await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
  const created = (await within(table).findByText('label:title')).closest('tr')!;
  expect(within(created).getByText('Created')).toBeInTheDocument();
  expect(within(created).getByText('Platform')).toBeInTheDocument();
  expect(within(created).getByText('Group A')).toBeInTheDocument();
});

test('values are shown as the entity pages show them (a status, a position), others as they are', async () => {
  loginAs('admin', '1');
  mockApi({
    'GET /api/dsppartners/5/logs': () =>
      json({
        items: [
          log('4', 'update', [
            { field: 'status', before: 'inactive', after: 'active' },
            { field: 'name', before: 'A', after: 'B' },
          ]),
        ],
        total: 1,
        page: 1,
        limit: 20,
      }),
  });
  render(
    <AppProviders queryClient={createQueryClient()} env="test">
      <MemoryRouter>
        <LogsPage
          path="/dsppartners/5/logs"
          title="DSP log"
          valueLabel={(f, v) => (f === 'status' ? `status:${String(v)}` : undefined)}
        />
      </MemoryRouter>
    </AppProviders>,
  );
  const table = await screen.findByRole('table', { name: 'DSP log' });
  const status = (await within(table).findByText('status')).closest('tr')!;
  expect(within(status).getByText('status:inactive')).toBeInTheDocument();
  expect(within(status).getByText('status:active')).toBeInTheDocument();
  const name = within(table).getByText('name').closest('tr')!;
  expect(within(name).getByText('B')).toBeInTheDocument();
});
