import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
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
  created_by: '1',
  created_at: '2026-01-02T10:00:00.000Z',
  updated_at: '2026-01-02T10:00:00.000Z',
  ...over,
});

function admin(role: 'admin' | 'adminreadonly', blocks: () => unknown[], extra = {}) {
  loginAs(role, '1');
  return mockApi({
    'GET /api/auth/me': () => json(meFixture(role, '1')),
    'GET /api/users/1': () => json(accountFixture({ _id: '1', name: 'Ada Admin' })),
    'GET /api/blocked-sources': () => json(pageOf(blocks())),
    'POST /api/campaigns/names': () =>
      json({ items: [{ _id: '5', name: 'Spring sale', user_id: '7', currency: 'USD' }] }),
    ...extra,
  });
}

describe('/sources: every campaign’s blocked sources (admin)', { timeout: 60_000 }, () => {
  beforeAll(stubFonts);

  test("an empty list says 'No blocked sources'; the page is in the admin navigation", async () => {
    admin('admin', () => []);
    renderApp('/sources');
    expect(await screen.findByText('No blocked sources', {}, { timeout: 15_000 })).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Blocked sources' })).toBeInTheDocument();
    expect(screen.getAllByRole('link', { name: 'Blocked sources' }).length).toBeGreaterThan(0);
  });

  test('the campaign, source, reason, until and who; edit and amnesty through the API', async () => {
    let blocks = [
      block(),
      block({
        _id: '32',
        campaign_id: null,
        site_id: null,
        widget_id: '44',
        widget_title: 'Sidebar',
        reason: '',
        until: '2099-01-31T23:59:59.999Z',
      }),
    ];
    const api = admin('admin', () => blocks, {
      'PUT /api/blocked-sources/31': () => json(block({ reason: 'Fraud' })),
      'DELETE /api/blocked-sources/32': () => {
        blocks = blocks.filter((b) => b._id !== '32');
        return new Response(null, { status: 204 });
      },
    });
    const user = userEvent.setup();
    renderApp('/sources');
    const table = await screen.findByRole('table', { name: 'Blocked sources' }, { timeout: 15_000 });
    expect(await within(table).findByRole('link', { name: 'Spring sale' })).toHaveAttribute(
      'href',
      '/users/7/campaigns/5',
    );
    expect(within(table).getByText('All campaigns')).toBeInTheDocument();
    expect(within(table).getByText('news.example')).toBeInTheDocument();
    expect(within(table).getByText('Sidebar')).toBeInTheDocument();
    expect(within(table).getByText('Bot traffic')).toBeInTheDocument();
    expect(within(table).getByText('Permanent')).toBeInTheDocument();
    expect((await within(table).findAllByRole('link', { name: 'Ada Admin' })).length).toBe(2);

    await user.click(within(table).getByRole('button', { name: 'Edit the block of #12' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit the block' });
    await user.clear(within(dialog).getByLabelText('Reason'));
    await user.type(within(dialog).getByLabelText('Reason'), 'Fraud');
    await user.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(put?.body ?? '{}')).toEqual({ blocked_source: { reason: 'Fraud', until: null } });

    await user.click(within(table).getByRole('button', { name: 'Unblock #44' }));
    const confirm = await screen.findByRole('dialog', { name: 'Unblock this source?' });
    await user.click(within(confirm).getByRole('button', { name: 'Unblock' }));
    await waitFor(() => expect(within(table).queryByText('Sidebar')).not.toBeInTheDocument());
    expect(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/blocked-sources/32')).toBe(true);
  });

  test('an admin blocks a source for every campaign or for one; an unknown campaign is said under its field', async () => {
    let blocks: unknown[] = [];
    const api = admin('admin', () => blocks, {
      'POST /api/blocked-sources': (req: { body: string }) => {
        const input = JSON.parse(req.body).blocked_source;
        if (input.campaign_id === '999')
          return validationFailure([{ field: 'campaign_id', code: 'not_found', detail: 'Not found' }]);
        const made = block({
          _id: String(40 + blocks.length),
          campaign_id: input.campaign_id,
          reason: input.reason,
        });
        blocks = [...blocks, made];
        return json(made, 201);
      },
    });
    const user = userEvent.setup();
    renderApp('/sources');
    await screen.findByText('No blocked sources', {}, { timeout: 15_000 });

    // every campaign: the campaign left empty
    await user.click(screen.getByRole('button', { name: 'Block a source' }));
    let dialog = await screen.findByRole('dialog', { name: 'Block a traffic source' });
    expect(
      within(dialog).getByText('Leave empty to block the source for every campaign.'),
    ).toBeInTheDocument();
    await user.type(within(dialog).getByLabelText(/Site or widget ID/), '12');
    await user.type(within(dialog).getByLabelText('Reason'), 'Bot traffic');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'POST' && c.path === '/api/blocked-sources')).toHaveLength(
        1,
      ),
    );
    expect(
      JSON.parse(
        api.calls.find((c) => c.method === 'POST' && c.path === '/api/blocked-sources')?.body ?? '{}',
      ),
    ).toEqual({
      blocked_source: { site_id: '12', reason: 'Bot traffic', until: null, campaign_id: null },
    });
    const table = await screen.findByRole('table', { name: 'Blocked sources' });
    expect(await within(table).findByText('All campaigns')).toBeInTheDocument();

    // one campaign: an unknown one is said under the field, then a known one is blocked
    await user.click(screen.getByRole('button', { name: 'Block a source' }));
    dialog = await screen.findByRole('dialog', { name: 'Block a traffic source' });
    await user.type(within(dialog).getByLabelText('Campaign ID'), '999');
    await user.type(within(dialog).getByLabelText(/Site or widget ID/), '12');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    expect(await within(dialog).findByText('No campaign with this ID')).toBeInTheDocument();
    await user.clear(within(dialog).getByLabelText('Campaign ID'));
    await user.type(within(dialog).getByLabelText('Campaign ID'), '5');
    await user.click(within(dialog).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Block a traffic source' })).toBeNull());
    const posts = api.calls
      .filter((c) => c.method === 'POST' && c.path === '/api/blocked-sources')
      .map((c) => JSON.parse(c.body ?? '{}'));
    expect(posts.at(-1)).toEqual({
      blocked_source: { site_id: '12', reason: '', until: null, campaign_id: '5' },
    });
    expect(await within(table).findByRole('link', { name: 'Spring sale' })).toBeInTheDocument();
  });

  test('a readonly admin reads the list without edit or unblock', async () => {
    admin('adminreadonly', () => [block()]);
    renderApp('/sources');
    const table = await screen.findByRole('table', { name: 'Blocked sources' }, { timeout: 15_000 });
    expect(await within(table).findByText('Bot traffic')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: /Unblock/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Block a source' })).not.toBeInTheDocument();
  });
});
