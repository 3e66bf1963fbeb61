import { adsenseImportDetail } from '@adp/contract';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const row = {
  line: 2,
  date: '2026-11-01',
  source: 'news.example',
  site_id: '3',
  site_title: 'News',
  user_id: '7',
  page_views: 1200,
  impressions: 3400,
  clicks: 12,
  adsense_revenue: 10,
  site_income: 5,
  own_income: 5,
  errors: [],
};
const detail = adsenseImportDetail.parse({
  _id: '4',
  file_name: 'report.csv',
  format: 'current',
  currency: 'USD',
  status: 'uploaded',
  rows_count: 2,
  error_rows: 1,
  adsense_revenue: 10.4,
  site_income: 0,
  own_income: 0,
  uploaded_by: '1',
  approved_by: null,
  approved_at: null,
  created_at: '2026-11-03T10:00:00.000Z',
  rows: [
    { ...row, _id: '10' },
    {
      ...row,
      _id: '11',
      line: 3,
      source: 'nowhere.example',
      site_id: null,
      site_title: null,
      user_id: null,
      adsense_revenue: 0.4,
      site_income: null,
      own_income: null,
      errors: [{ field: 'site_id', code: 'adsense_no_site', detail: 'No site matches this row: choose one' }],
    },
  ],
});

describe('AdSense incomes', () => {
  test('an upload error is a danger toast with the server message', async () => {
    loginAs('admin', '1');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/adsense': () => json({ items: [], total: 0, page: 1, limit: 20 }),
      'POST /api/adsense/upload': () =>
        validationFailure([
          {
            field: 'file',
            code: 'adsense_columns',
            detail: 'The file is not an AdSense report: it has no Date column',
          },
        ]),
    });
    renderApp('/adsense-incomes');
    expect(await screen.findByText('No report has been uploaded yet')).toBeInTheDocument();
    const input = document.querySelector('input[type=file]') as HTMLInputElement;
    await userEvent.upload(input, new File(['Month\n2026-11'], 'x.csv', { type: 'text/csv' }));
    const toast = await screen.findByText('The file is not an AdSense report: it has no Date column');
    // a danger toast: Mantine's red notification
    expect(toast.closest('[style*="--notification-color"]')?.getAttribute('style')).toContain('red');
  });

  test('the rows show their errors; approving sends the chosen sites and shows the credited amount', async () => {
    loginAs('admin', '1');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/adsense/4': () => json(detail),
      'GET /api/sites': () => json({ items: [], total: 0, page: 1, limit: 50 }),
      'POST /api/adsense/approve': () =>
        json({
          ...detail,
          status: 'approved',
          site_income: 5.2,
          own_income: 5.2,
          approved_at: detail.created_at,
        }),
    });
    renderApp('/adsense-incomes/4');
    const table = await screen.findByRole('table', { name: 'Rows of the report' });
    expect(within(table).getByText('No site matches this row: choose one')).toBeInTheDocument();
    expect(within(table).getAllByLabelText('Site of line 2')[0]).toHaveValue('News');
    await userEvent.click(screen.getByRole('button', { name: 'Approve and credit publishers' }));
    // money moves only after the admin confirms
    const dialog = await screen.findByRole('dialog', { name: 'Approve this report?' });
    expect(api.calls.some((c) => c.path === '/api/adsense/approve')).toBe(false);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Approve and credit publishers' }));
    expect(await screen.findByText('Approved: $5.20 credited to the publishers')).toBeInTheDocument();
    const call = api.calls.find((c) => c.path === '/api/adsense/approve');
    expect(JSON.parse(call?.body ?? '{}')).toEqual({ adsense: { _id: '4', rows: [] } });
  });
});
