import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { stubFonts } from '../../test/advertiser-fixtures.ts';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';
import { blocksOf } from './components/content-text.tsx';

const slow = { timeout: 20_000 };

const faq = {
  slug: 'faq',
  locale: 'en',
  body: '## Payments\nWe pay monthly.\nWrite to pay@adp.example or see https://adp.example/terms.\n\n- PayPal\n- Wire\n\n<script>alert(1)</script><b>bold</b>',
  updated_at: '2026-11-20T10:00:00.000Z',
};

describe('FAQ and contacts', { timeout: 60_000 }, () => {
  beforeAll(stubFonts);

  test('the text is rendered as text: headings, lists, links; HTML is shown, never run', async () => {
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/pages/faq': () => json(faq),
    });
    renderApp('/faq');
    const article = await screen.findByRole('article', { name: 'FAQ' }, slow);
    expect(within(article).getByRole('heading', { name: 'Payments' })).toBeInTheDocument();
    expect(
      within(article)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['PayPal', 'Wire']);
    expect(within(article).getByRole('link', { name: 'pay@adp.example' })).toHaveAttribute(
      'href',
      'mailto:pay@adp.example',
    );
    expect(within(article).getByRole('link', { name: 'https://adp.example/terms' })).toHaveAttribute(
      'href',
      'https://adp.example/terms',
    );
    expect(within(article).getByText('<script>alert(1)</script><b>bold</b>')).toBeInTheDocument();
    expect(article.querySelector('script, b')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Edit' })).toBeNull();
    expect(api.calls.find((c) => c.path === '/api/pages/faq')?.query.get('locale')).toBe('en');
  });

  test('an empty page says so; a javascript: address is never a link', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/pages/contacts': () => json({ slug: 'contacts', locale: 'en', body: '', updated_at: null }),
    });
    renderApp('/contacts');
    expect(await screen.findByText('Nothing here yet.', {}, slow)).toBeInTheDocument();
    expect(blocksOf('javascript:alert(1)')).toEqual([{ kind: 'paragraph', lines: ['javascript:alert(1)'] }]);
  });

  test('an admin writes the page in six languages and saves them together', async () => {
    const user = userEvent.setup();
    loginAs('admin', '1');
    const bodies = { en: 'Call us', ru: '', uk: '', de: '', fr: '', pt: '' };
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('admin', '1')),
      'GET /api/pages/contacts': () =>
        json({ slug: 'contacts', locale: 'en', body: 'Call us', updated_at: '2026-11-20T10:00:00.000Z' }),
      'GET /api/pages/contacts/edit': () =>
        json({ slug: 'contacts', bodies, updated_at: '2026-11-20T10:00:00.000Z' }),
      'PUT /api/pages/contacts': (req) =>
        json({
          slug: 'contacts',
          bodies: JSON.parse(req.body).page.bodies,
          updated_at: '2026-11-21T10:00:00.000Z',
        }),
    });
    renderApp('/contacts');
    await user.click(await screen.findByRole('button', { name: 'Edit' }, slow));
    expect(await screen.findByLabelText('Text in English', {}, slow)).toHaveValue('Call us');
    await user.click(screen.getByRole('tab', { name: 'Deutsch' }));
    await user.type(await screen.findByLabelText('Text in Deutsch'), 'Rufen Sie uns an');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true), slow);
    const put = api.calls.find((c) => c.method === 'PUT');
    expect(JSON.parse(put!.body)).toEqual({ page: { bodies: { ...bodies, de: 'Rufen Sie uns an' } } });
    expect(await screen.findByText('The page is saved')).toBeInTheDocument();
  });
});
