import { ipImportResult } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { campaignFixture, pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
import { accountFixture, json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

/** A label as shown, with the asterisk of required fields. */
const label = (text: string) => new RegExp(`^${text.replace(/[()]/g, '\\$&')}\\s*\\*?$`);

const campaignLabels = [
  'Title',
  'Ads type',
  'Click price',
  'Daily clicks',
  'Daily budget',
  'Pacing',
  'Weight',
  'Click filter',
  'Brand name',
  'Sub category',
  'IAB content categories',
  'Site',
  'Widgets',
  'UTM parameters',
  'Track URLs',
  'CPC feed processor',
  'Hide sites in click statistics',
  'Count impression on image load',
  'Ad code (AdSense, Criteo)',
  'OpenRTB enabled',
  'Only OpenRTB',
  'Target CTR auto',
  'Daily budget limit',
  'Target CTR',
  'eCPM bid',
  'DSP white list',
  'DSP black list',
  'Source white list',
  'Source black list',
];

function campaignApi(overrides: Parameters<typeof campaignFixture>[0] = {}, extra = {}) {
  return mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/users/7': () => json(accountFixture({ _id: '7', balance: 3 })),
    'GET /api/campaigns/5': () => json(campaignFixture(overrides)),
    'GET /api/campaigns/5/payments': () => json(pageOf([])),
    'GET /api/banners': () => json(pageOf([])),
    'GET /api/sites': () => json(pageOf([])),
    ...extra,
  });
}

describe('campaigns', { timeout: 90_000 }, () => {
  beforeAll(stubFonts);

  test('the campaign form shows every Campaign field with a label and documents the macros', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites': () => json(pageOf([])),
    });
    renderApp('/users/7/campaigns/create');
    await screen.findByRole('heading', { name: 'New campaign' }, { timeout: 10_000 });
    for (const name of campaignLabels) {
      expect(screen.getAllByLabelText(label(name)).length, name).toBeGreaterThan(0);
    }
    const macros = screen.getByRole('table', { name: 'Tracking macros' });
    expect(within(macros).getByText('{click_id}')).toBeInTheDocument();
    expect(within(macros).getByText('{campaign_id}')).toBeInTheDocument();
  });

  test('daily budget and pacing are edited and sent with the campaign', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = campaignApi(
      { daily_budget: 20, pacing: 'even' },
      { 'PUT /api/campaigns/5': () => json(campaignFixture({ daily_budget: 35.5, pacing: 'asap' })) },
    );
    renderApp('/users/7/campaigns/5/edit');
    const budget = await screen.findByLabelText(label('Daily budget'), {}, { timeout: 10_000 });
    expect(budget).toHaveValue('20');
    expect(screen.getByText('Spending per UTC day at most; empty means no limit')).toBeInTheDocument();
    await user.clear(budget);
    await user.type(budget, '35.5');
    await user.click(screen.getAllByLabelText(label('Pacing'))[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'As fast as possible' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      const put = api.calls.find((c) => c.method === 'PUT' && c.path === '/api/campaigns/5');
      expect(put && JSON.parse(put.body).campaign).toMatchObject({ daily_budget: 35.5, pacing: 'asap' });
    });
  });

  test('IAB content categories: picked by code or category name, sent as codes; a refused code shows under the field', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    let refuse = false;
    const api = campaignApi(
      { iab_categories: ['IAB7-39'] },
      {
        'PUT /api/campaigns/5': () =>
          refuse
            ? validationFailure([
                {
                  field: 'iab_categories.1',
                  detail:
                    'IAB content categories: unknown code; use IAB content category codes such as IAB7 or IAB7-39',
                  code: 'iab_category',
                },
              ])
            : json(campaignFixture({ iab_categories: ['IAB7-39', 'IAB8'] })),
      },
    );
    renderApp('/users/7/campaigns/5/edit');
    const input = (
      await screen.findAllByLabelText(label('IAB content categories'), {}, { timeout: 10_000 })
    )[0] as HTMLElement;
    // the saved code is shown as picked, labelled with its tier-1 category
    expect(screen.getByText('IAB7-39 (Health & Fitness)')).toBeInTheDocument();
    expect(
      screen.getByText(/Exchanges that block one of them in a bid request \(bcat\) get no bid/),
    ).toBeInTheDocument();
    // found by the category's name
    await user.click(input);
    await user.type(input, 'Food & Dr');
    await user.click(await screen.findByRole('option', { name: 'IAB8 · Food & Drink' }));
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => {
      const put = api.calls.find((c) => c.method === 'PUT' && c.path === '/api/campaigns/5');
      expect(put && JSON.parse(put.body).campaign.iab_categories).toEqual(['IAB7-39', 'IAB8']);
    });
    refuse = true;
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(
      (await screen.findAllByText(/unknown code; use IAB content category codes such as IAB7 or IAB7-39/))
        .length,
    ).toBeGreaterThan(0);
  });

  test('a CPC feed campaign asks for the feed settings as JSON and shows why the server refused them', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    campaignApi(
      { adstype: 'cpcfeed', cpc_feed_processor: null },
      {
        'PUT /api/campaigns/5': () =>
          validationFailure([
            {
              field: 'src_code',
              code: 'feed_config_invalid',
              detail: 'The mgid feed settings are not valid: token: Invalid input',
            },
          ]),
      },
    );
    renderApp('/users/7/campaigns/5/edit');
    const settings = await screen.findByLabelText(label('Feed settings (JSON)'), {}, { timeout: 10_000 });
    expect(
      screen.getByText('Choose the CPC feed processor first; its settings go here as a JSON object'),
    ).toBeInTheDocument();
    await user.click(screen.getAllByLabelText(label('CPC feed processor'))[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: 'mgid' }));
    expect(await screen.findByTestId('feed-config-example')).toHaveTextContent(
      '{"widget_id":"123456","token":"your-api-token"}',
    );
    await user.click(settings);
    await user.paste('{"widget_id": "1"}');
    await user.click(screen.getByRole('button', { name: 'Save changes' }));
    await waitFor(() => expect(settings).toHaveAttribute('aria-invalid', 'true'));
    // under the field (and in the error toast)
    const describedBy = settings.getAttribute('aria-describedby') ?? '';
    const messages = describedBy
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' ');
    expect(messages).toContain('The mgid feed settings are not valid: token: Invalid input');
  });

  test('the target CTR check explains an unchecked result with too few impressions', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const rtb = {
      enabled: true,
      daily_budget_limit: null,
      target_ctr: 1.5,
      target_ctr_auto: false,
      dsp_whitelist: [],
      dsp_blacklist: [],
      source_whitelist: [],
      source_blacklist: [],
      ecpm_bid: null,
      only_openrtb: false,
    };
    campaignApi(
      { openrtb: rtb },
      {
        'POST /api/campaigns/5/check-target-ctr': () =>
          json({
            campaign: campaignFixture({ openrtb: rtb, target_ctr_check_date: '2026-01-03T10:00:00.000Z' }),
            impressions: 420,
            clicks: 9,
            ctr: 2.143,
            passed: false,
            status: 'unchecked',
            min_impressions: 1000,
            message: 'TargetCTR not checked!',
          }),
      },
    );
    renderApp('/users/7/campaigns/5/edit');
    await user.click(await screen.findByRole('button', { name: 'Check now' }, { timeout: 10_000 }));
    const status = await screen.findByRole('status');
    expect(status).toHaveTextContent(
      'TargetCTR not checked! At least 1000 impressions in the last 7 days are needed to decide; this campaign has 420.',
    );
  });

  test('a refused activation explains itself with a link to top up the balance', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    campaignApi(
      {},
      {
        'PUT /api/campaigns/5': () =>
          validationFailure([
            { field: 'status', code: 'not_enough_balance', detail: 'Not enough balance to activate' },
          ]),
      },
    );
    renderApp('/users/7/campaigns/5');
    const toggle = await screen.findByRole('switch', { name: 'Campaign status' }, { timeout: 10_000 });
    await user.click(toggle);
    const link = await screen.findByRole('link', { name: 'Top up' });
    expect(link).toHaveAttribute('href', '/users/7/topup');
    const alert = link.closest('[role="alert"]') as HTMLElement;
    expect(within(alert).getByText('Not enough balance to activate')).toBeInTheDocument();
  });

  test('an unchecked target CTR refuses activation with its message', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    campaignApi(
      { balance: 10 },
      {
        'PUT /api/campaigns/5': () =>
          validationFailure([
            { field: 'status', code: 'target_ctr_not_checked', detail: 'TargetCTR not checked!' },
          ]),
      },
    );
    renderApp('/users/7/campaigns/5');
    await user.click(await screen.findByRole('switch', { name: 'Campaign status' }, { timeout: 10_000 }));
    await screen.findByText('Run the target CTR check in the OpenRTB settings or turn on auto.');
    expect(screen.getAllByText('TargetCTR not checked!').length).toBeGreaterThan(0);
    expect(screen.queryByRole('link', { name: 'Top up' })).toBeNull();
  });

  test('a failed target CTR check refuses activation saying it failed, and what to do', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    campaignApi(
      { balance: 10 },
      {
        'PUT /api/campaigns/5': () =>
          validationFailure([
            { field: 'status', code: 'target_ctr_not_passed', detail: 'Target CTR did not pass the check' },
          ]),
      },
    );
    renderApp('/users/7/campaigns/5');
    await user.click(await screen.findByRole('switch', { name: 'Campaign status' }, { timeout: 10_000 }));
    await screen.findByText(/below its target: lower the target or turn on auto/);
    expect(screen.getAllByText('Target CTR did not pass the check').length).toBeGreaterThan(0);
  });

  test('the fund dialog is disabled with an explanation while the campaign is on', async () => {
    loginAs('default', '7');
    campaignApi({ status: 'active', balance: 5 });
    renderApp('/users/7/campaigns/5');
    const fund = await screen.findByRole('button', { name: 'Fund campaign' }, { timeout: 10_000 });
    expect(fund).toBeDisabled();
    expect(
      screen.getByText('The balance can only change while the campaign is switched off.'),
    ).toBeInTheDocument();
  });

  test('funding an inactive campaign posts the sum wrapped in payment', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = campaignApi(
      {},
      {
        'POST /api/campaigns/5/payments': () =>
          json(
            {
              _id: '1',
              campaign_id: '5',
              type: 'campaign_funding',
              sum: 2,
              balance_after: 2,
              actor_id: '7',
              date: '2026-01-02T10:00:00.000Z',
            },
            201,
          ),
      },
    );
    renderApp('/users/7/campaigns/5');
    await user.click(await screen.findByRole('button', { name: 'Fund campaign' }, { timeout: 10_000 }));
    await user.type(await screen.findByLabelText('Amount'), '2');
    await user.click(screen.getByRole('button', { name: 'Move money' }));
    await waitFor(() => {
      const post = api.calls.find((c) => c.method === 'POST' && c.path === '/api/campaigns/5/payments');
      expect(post && JSON.parse(post.body)).toEqual({ payment: { sum: 2 } });
    });
  });

  test("the campaign page's recent payments are the money moved in and out; the ledger page tells payments from charges", async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const row = (id: string, type: string, sum: number) => ({
      _id: id,
      campaign_id: '5',
      type,
      sum,
      balance_after: 10,
      actor_id: null,
      date: '2026-01-02T10:00:00.000Z',
    });
    const api = campaignApi(
      {},
      {
        'GET /api/campaigns/5/payments': (req: { query: URLSearchParams }) =>
          json(
            pageOf(
              req.query.get('kind') === 'charges'
                ? [row('9', 'rtb_impression', -0.0025)]
                : [row('1', 'campaign_funding', 20)],
            ),
          ),
      },
    );
    const kinds = () =>
      api.calls.filter((c) => c.path === '/api/campaigns/5/payments').map((c) => c.query.get('kind'));
    renderApp('/users/7/campaigns/5');
    await screen.findByRole('button', { name: 'Fund campaign' }, { timeout: 10_000 });
    expect(kinds()).toEqual(['payments']);

    await user.click(screen.getByRole('link', { name: 'All payments' }));
    await screen.findByRole('heading', { name: 'Campaign payments' });
    expect(await screen.findByText('Campaign funding')).toBeInTheDocument();
    expect(kinds().at(-1)).toBe('all');
    await user.click(screen.getByRole('radio', { name: 'Charges' }));
    expect(await screen.findByText('Exchange impression')).toBeInTheDocument();
    expect(screen.getByText('-$0.0025')).toBeInTheDocument();
    expect(kinds().at(-1)).toBe('charges');
  });

  test('a readonly user sees no write controls', async () => {
    loginAs('defaultreadonly', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('defaultreadonly', '7')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', role: 'defaultreadonly' })),
      'GET /api/campaigns/5': () => json(campaignFixture()),
      'GET /api/campaigns/5/payments': () => json(pageOf([])),
      'GET /api/banners': () => json(pageOf([])),
    });
    renderApp('/users/7/campaigns/5');
    await screen.findByRole('heading', { name: 'Spring sale' }, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: 'Fund campaign' })).toBeNull();
    expect(screen.queryByRole('switch', { name: 'Campaign status' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Delete' })).toBeNull();
  });
  test('an IP import shows the imported count and the refused rows by line', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    campaignApi(
      {},
      {
        'POST /api/campaigns/5/import-ips': () =>
          json(ipImportResult.parse({ imported: 2, total: 2, errors: [{ line: 3, value: '300.1.1.1' }] })),
      },
    );
    renderApp('/users/7/campaigns/5');
    await screen.findByRole('button', { name: 'Import IPs from CSV' }, { timeout: 10_000 });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(
      input,
      new File(['10.0.0.1\n10.0.0.0/8\n300.1.1.1\n'], 'ips.csv', { type: 'text/csv' }),
    );
    expect(await screen.findByText('Imported 2, 2 in the list now')).toBeInTheDocument();
    expect(screen.getByText('Refused rows: 1')).toBeInTheDocument();
    expect(screen.getByText('Line 3: 300.1.1.1')).toBeInTheDocument();
  });

  test('the IP list shows on demand and is cleared after a confirmation', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = campaignApi(
      { ip_ranges: 2 },
      {
        'GET /api/campaigns/5/ip-ranges': () => json({ items: ['10.0.0.1', '10.0.0.0/8'], total: 2 }),
        'DELETE /api/campaigns/5/ip-ranges': () => new Response(null, { status: 204 }),
      },
    );
    renderApp('/users/7/campaigns/5');
    await user.click(await screen.findByRole('button', { name: 'Show the list (2)' }, { timeout: 10_000 }));
    expect(await screen.findByTestId('campaign-ip-list')).toHaveTextContent('10.0.0.0/8');
    await user.click(screen.getByRole('button', { name: 'Clear the list' }));
    const dialog = await screen.findByRole('dialog', { name: 'Clear the IP list?' });
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    await user.click(within(dialog).getByRole('button', { name: 'Clear the list' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'DELETE' && c.path === '/api/campaigns/5/ip-ranges')).toBe(
        true,
      ),
    );
    expect(await screen.findByText('The IP list is empty')).toBeInTheDocument();
  });

  test('an admin approves a campaign awaiting moderation', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7' })),
      'GET /api/campaigns/5': () => json(campaignFixture({ moderation: 'pending' })),
      'GET /api/campaigns/5/payments': () => json(pageOf([])),
      'GET /api/banners': () => json(pageOf([])),
      'POST /api/campaigns/5/moderate': () => json(campaignFixture({ moderation: 'approved' })),
    });
    renderApp('/users/7/campaigns/5');
    await user.click(await screen.findByRole('button', { name: 'Approve' }, { timeout: 10_000 }));
    await waitFor(() => {
      const post = api.calls.find((c) => c.path === '/api/campaigns/5/moderate');
      expect(post && JSON.parse(post.body)).toEqual({ decision: 'approve' });
    });
  });

  test("the back link of another user's campaign names that user's list, of one's own 'My campaigns'", async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/users/7': () => json(accountFixture({ _id: '7', name: 'Anna' })),
      'GET /api/campaigns/5': () => json(campaignFixture()),
      'GET /api/campaigns/5/payments': () => json(pageOf([])),
      'GET /api/banners': () => json(pageOf([])),
    });
    const admin = renderApp('/users/7/campaigns/5');
    expect(
      await screen.findByRole('link', { name: /Campaigns of Anna/ }, { timeout: 10_000 }),
    ).toHaveAttribute('href', '/users/7/campaigns');
    admin.unmount();

    loginAs('default', '7');
    campaignApi();
    renderApp('/users/7/campaigns/5');
    expect(
      await screen.findByRole('link', { name: /My campaigns/ }, { timeout: 10_000 }),
    ).toBeInTheDocument();
  });
});
