import { decodedUrl } from '@adp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const decoded = decodedUrl.parse({
  kind: 'click',
  origin: 'https://ads.example',
  path: '/click/AbC.1',
  params: [{ name: 'utm_source', value: 'mag', tracking: true }],
  error: null,
  token: {
    status: 'expired',
    impression_id: 'a1b2',
    issued_at: '2026-05-01T10:00:00.000Z',
    expires_at: '2026-05-01T11:00:00.000Z',
    site_id: '3',
    site_title: 'Mag',
    widget_id: '4',
    widget_title: 'Below article',
    visitor_id: 'v1',
    country: 'DE',
    city: 'Berlin',
    device: 'desktop',
    os: 'Linux',
    browser: 'Chrome',
    position: 1,
    impression_counted: true,
    view_counted: false,
    click: {
      click_id: 'c1',
      status: 'invalid',
      reason: 'expired',
      price: 0,
      created_at: '2026-05-01T12:00:00.000Z',
    },
    items: [
      {
        position: 0,
        campaign_id: '7',
        campaign_title: 'Shoes',
        banner_id: '8',
        banner_title: 'Half price',
        price: 0.5,
        url: null,
      },
      {
        position: 1,
        campaign_id: '9',
        campaign_title: null,
        banner_id: '10',
        banner_title: null,
        price: 0.25,
        url: null,
      },
    ],
  },
});

describe('decode-URL page', () => {
  test('the URL must not be empty; a click URL shows its answer, the clicked item and what became of it', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'POST /api/decode-url': () => json(decoded),
    });
    renderApp('/decode-url');
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Decode' }));
    expect(await screen.findByText("URL can't be empty")).toBeInTheDocument();
    const decodes = () => api.calls.filter((c) => c.method === 'POST' && c.path === '/api/decode-url');
    expect(decodes()).toHaveLength(0);

    await user.type(
      screen.getByRole('textbox', { name: /URL/ }),
      'https://ads.example/click/AbC.1?utm_source=mag',
    );
    await user.click(screen.getByRole('button', { name: 'Decode' }));
    expect(await screen.findByText('Click URL')).toBeInTheDocument();
    expect(JSON.parse(decodes()[0]?.body ?? '{}')).toEqual({
      url: 'https://ads.example/click/AbC.1?utm_source=mag',
    });
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.getByText('Mag (#3)')).toBeInTheDocument();
    expect(screen.getByText('Not charged: expired')).toBeInTheDocument();
    // the device by its name in the reader's language
    expect(screen.getByText('Desktop · Linux · Chrome')).toBeInTheDocument();
    const items = screen.getByRole('table', { name: 'Items shown' });
    const clicked = within(items).getByText('2 · this URL').closest('tr') as HTMLElement;
    expect(clicked).toHaveAttribute('aria-current', 'true');
    // a deleted campaign still shows its id
    expect(within(clicked).getByText('#9 · deleted')).toBeInTheDocument();
    const params = screen.getByRole('table', { name: 'Query parameters' });
    expect(within(params).getByText('utm_source')).toBeInTheDocument();
    expect(within(params).getByText('Tracking')).toBeInTheDocument();
  });

  test('an exchange win URL shows the bid: partner, campaign, our bid and the notices received', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'POST /api/decode-url': () =>
        json(
          decodedUrl.parse({
            kind: 'rtb_nurl',
            origin: 'https://ads.example',
            path: '/rtb/nurl/abc.def',
            params: [{ name: 'price', value: '2.5', tracking: false }],
            error: null,
            token: null,
            bid: {
              status: 'valid',
              bid_id: 'b1d',
              channel: 'rtb',
              partner_id: '3',
              partner_name: 'SSP',
              campaign_id: '7',
              campaign_title: 'Shoes',
              banner_id: '8',
              banner_title: 'Half price',
              source: 'news.example',
              bid: 4,
              currency: 'USD',
              rate: 1,
              issued_at: '2026-05-01T10:00:00.000Z',
              expires_at: '2026-05-02T10:00:00.000Z',
              nurl: { price: 2.5, charged: 0, created_at: '2026-05-01T10:00:01.000Z' },
              burl: null,
            },
          }),
        ),
    });
    renderApp('/decode-url');
    const user = userEvent.setup();
    await user.type(
      await screen.findByRole('textbox', { name: /URL/ }),
      'https://ads.example/rtb/nurl/abc.def',
    );
    await user.click(screen.getByRole('button', { name: 'Decode' }));
    expect(await screen.findByText('Exchange win notice')).toBeInTheDocument();
    expect(screen.getByText('SSP (#3)')).toBeInTheDocument();
    expect(screen.getByText('Shoes (#7)')).toBeInTheDocument();
    expect(screen.getByText('news.example')).toBeInTheDocument();
    expect(screen.getByText('Not received')).toBeInTheDocument();
  });
});
