import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { formatDateTime } from '../../lib/format.ts';
import { campaignFixture, pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
import { accountFixture, json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const block = (over: Record<string, unknown> = {}) => ({
  _id: '31',
  campaign_id: '5',
  site_id: '12',
  widget_id: null,
  site_domain: 'news.example',
  widget_title: null,
  reason: 'Bot traffic',
  until: null,
  active: true,
  created_by: '7',
  created_at: '2026-01-02T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
  ...over,
});

function api(role: 'default' | 'defaultreadonly', blocks: unknown[], extra = {}) {
  loginAs(role, '7');
  return mockApi({
    'GET /api/auth/me': () => json(meFixture(role, '7')),
    'GET /api/users/7': () => json(accountFixture({ _id: '7', balance: 3 })),
    'GET /api/campaigns/5': () => json(campaignFixture({})),
    'GET /api/campaigns/5/payments': () => json(pageOf([])),
    'GET /api/campaigns/5/blocked-sources': () => json(pageOf(blocks)),
    'GET /api/banners': () => json(pageOf([])),
    ...extra,
  });
}

async function panel() {
  return screen.findByRole('region', { name: 'Blocked sources' }, { timeout: 10_000 });
}

describe('blocked sources on the campaign page', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test("an empty list says 'No blocked sources'", async () => {
    api('default', []);
    renderApp('/users/7/campaigns/5');
    const p = await panel();
    expect(await within(p).findByText('No blocked sources')).toBeInTheDocument();
  });

  test('blocks show the source, reason and until or permanent', async () => {
    api('default', [
      block(),
      block({
        _id: '32',
        site_id: null,
        widget_id: '44',
        widget_title: 'Sidebar',
        reason: '',
        until: '2099-01-31T23:59:59.999Z',
      }),
    ]);
    renderApp('/users/7/campaigns/5');
    const p = await panel();
    expect(await within(p).findByText('news.example')).toBeInTheDocument();
    expect(within(p).getByText('Site #12')).toBeInTheDocument();
    expect(within(p).getByText('Bot traffic')).toBeInTheDocument();
    expect(within(p).getByText('Permanent')).toBeInTheDocument();
    // when it was blocked
    expect(within(p).getByRole('columnheader', { name: 'Blocked on' })).toBeInTheDocument();
    expect(within(p).getAllByText(formatDateTime('2026-01-02T10:00:00.000Z'))).toHaveLength(2);
    expect(within(p).getByText('Sidebar')).toBeInTheDocument();
    expect(within(p).getByText('Widget #44 · news.example')).toBeInTheDocument();
    expect(within(p).getByText('Jan 31, 2099')).toBeInTheDocument();
  });

  test('blocking a widget by id posts the block; an unknown id is shown on the field', async () => {
    const user = userEvent.setup();
    let answer = () => validationFailure([{ field: 'widget_id', detail: 'Not found' }]);
    const calls = api('default', [], {
      'POST /api/campaigns/5/blocked-sources': () => answer(),
    }).calls;
    renderApp('/users/7/campaigns/5');
    const p = await panel();
    await user.click(within(p).getByRole('button', { name: 'Block a source' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block a traffic source' });
    await user.click(within(dialog).getAllByLabelText('Source type')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'Widget' }));
    await user.type(within(dialog).getByLabelText(/Site or widget ID/), '44');
    await user.type(within(dialog).getByLabelText('Reason'), 'Fraud');
    await user.type(within(dialog).getByLabelText('Blocked until'), '2099-01-31');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await within(dialog).findByText('No site or widget with this ID')).toBeInTheDocument();
    const post = calls.find((c) => c.method === 'POST');
    expect(post && JSON.parse(post.body)).toEqual({
      blocked_source: { widget_id: '44', reason: 'Fraud', until: '2099-01-31' },
    });
    answer = () => json(block({ site_id: null, widget_id: '44' }), 201);
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Block a traffic source' })).toBeNull());
  });

  test('editing sends reason and until; unblocking asks first, then deletes (amnesty)', async () => {
    const user = userEvent.setup();
    const calls = api('default', [block()], {
      'PUT /api/blocked-sources/31': () => json(block({ reason: 'Spam' })),
      'DELETE /api/blocked-sources/31': () => new Response(null, { status: 204 }),
    }).calls;
    renderApp('/users/7/campaigns/5');
    const p = await panel();
    await user.click(await within(p).findByRole('button', { name: 'Edit the block of #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the block' });
    const reason = within(dialog).getByLabelText('Reason');
    await user.clear(reason);
    await user.type(reason, 'Spam');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => {
      const put = calls.find((c) => c.method === 'PUT');
      expect(put && JSON.parse(put.body)).toEqual({ blocked_source: { reason: 'Spam', until: null } });
    });

    await user.click(within(p).getByRole('button', { name: 'Unblock #12' }));
    const confirm = await screen.findByRole('dialog', { name: 'Unblock this source?' });
    expect(calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(confirm).getByRole('button', { name: 'Unblock' }));
    await waitFor(() =>
      expect(calls.some((c) => c.method === 'DELETE' && c.path === '/api/blocked-sources/31')).toBe(true),
    );
  });

  test('a readonly user sees the blocks without controls', async () => {
    api('defaultreadonly', [block()]);
    renderApp('/users/7/campaigns/5');
    const p = await panel();
    expect(await within(p).findByText('news.example')).toBeInTheDocument();
    expect(within(p).queryByRole('button', { name: 'Block a source' })).toBeNull();
    expect(within(p).queryByRole('button', { name: 'Unblock #12' })).toBeNull();
  });
});
