import { parserPreview, site as siteSchema } from '@adp/contract';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { paged, siteFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

/** A label as shown, with the asterisk of required fields. */
const label = (text: string) => new RegExp(`^${text.replace(/[()]/g, '\\$&')}\\s*\\*?$`);

const labels = [
  'Title',
  'Domain',
  'Category',
  'Status',
  'Country',
  'Language',
  'Time zone',
  'Tags',
  'Blacklist words',
  'Materials lifetime',
  'URL mask',
  'Default advertorial URL',
  'RSS version',
  'RSS feed URL',
  'Encoding',
  'Date format',
  'Category mask',
  'Title mask',
  'Image mask',
  'Image prefix',
  'Date mask',
  'HTML selector',
  'Tag attribute',
  'Default language',
  'Use NoIndex',
  'Mark traffic',
  'Advanced statistics',
  'Statistics visible',
  'Count views on scroll',
  'Strict items amount',
  'Infinite feed',
  'Payment method',
  'Agency rate',
  'Billing widget',
  'Affiliate user id',
  'Affiliate earnings',
];

describe('site form', { timeout: 60_000 }, () => {
  test('shows every Site and parser field with a label', async () => {
    loginAs('default', '7');
    mockApi({ 'GET /api/auth/me': () => json(meFixture('default', '7')) });
    renderApp('/sites/create');
    await screen.findByRole('heading', { name: 'New site' }, { timeout: 20_000 });
    for (const name of labels) {
      expect(screen.getAllByLabelText(label(name)).length, name).toBeGreaterThan(0);
    }
    // a switch is named by its label and described by its hint (what it does)
    const strict = screen.getByRole('switch', { name: 'Strict items amount' });
    expect(strict).toHaveAccessibleDescription(/A widget that cannot fill every slot shows nothing/);
    // who sees the site's statistics is an admin's to set: locked for the publisher, saying why
    for (const name of ['Advanced statistics', 'Statistics visible']) {
      const access = screen.getByRole('switch', { name });
      expect(access).toBeDisabled();
      expect(access).toHaveAccessibleDescription(/Set by an administrator\.$/);
    }
    // without a saved site there is nothing to fetch for yet
    expect(screen.getByRole('button', { name: 'RSS test' })).toBeDisabled();
  });

  test('a taken domain answered with 422 is shown under the domain field', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'POST /api/sites': () =>
        validationFailure([
          { field: 'domain', code: 'domain_taken', detail: 'This domain already belongs to a site' },
        ]),
    });
    renderApp('/sites/create');
    await user.type(await screen.findByLabelText(label('Title'), {}, { timeout: 20_000 }), 'Daily Planet');
    await user.type(screen.getByLabelText(label('Domain')), 'https://www.Daily-Planet.example/news');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    const domain = screen.getByLabelText(label('Domain'));
    await waitFor(() => expect(domain).toHaveAttribute('aria-invalid', 'true'));
    const field = domain.closest('.mantine-InputWrapper-root') as HTMLElement;
    expect(within(field).getByText('This domain already belongs to a site')).toBeInTheDocument();
    const sent = JSON.parse(api.calls.find((c) => c.method === 'POST')?.body ?? '{}');
    expect(sent.site).toMatchObject({
      title: 'Daily Planet',
      domain: 'daily-planet.example',
      category: 'news',
    });
    expect(sent.site.parser).toMatchObject({ rss_version: 'auto', tag_attribute: 'href' });
  });

  test('the edit form is filled from the site and the parser test sends the unsaved settings', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const current = siteFixture();
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () => json(siteSchema.parse(current)),
      'GET /api/widgets': () => json(paged([])),
      'POST /api/sites/5/parser-test': () =>
        json(
          parserPreview.parse({
            source: 'rss',
            items: [
              {
                url: 'https://daily-planet.example/a',
                title: 'Hello',
                description: '',
                image: 'https://daily-planet.example/a.jpg',
                category: 'news',
                language: 'en',
                published_at: null,
              },
            ],
            skipped: [{ url: 'https://daily-planet.example/b', reason: 'no_og_tags' }],
          }),
        ),
    });
    renderApp('/sites/5/edit');
    const selector = await screen.findByLabelText(label('HTML selector'), {}, { timeout: 20_000 });
    expect(screen.getByLabelText(label('Title'))).toHaveValue('Daily Planet');
    await user.type(selector, 'h2 a');
    await user.click(screen.getByRole('button', { name: 'Parser test' }));
    expect(await screen.findByText('Hello')).toBeInTheDocument();
    expect(screen.getByText(/No title or image \(OG tags\) found/)).toBeInTheDocument();
    const body = JSON.parse(api.calls.find((c) => c.path.endsWith('/parser-test'))?.body ?? '{}');
    expect(body.parser).toMatchObject({
      html_selector: 'h2 a',
      rss_url: 'https://daily-planet.example/feed.xml',
    });
  });

  test('the date format check converts a PHP format into the parser tokens and reads the sample', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'POST /api/parser/convert': () =>
        json({
          date_parse_string: 'DD.MM.YYYY HH:mm',
          converted_from: 'php',
          date: '2026-11-05T14:30:00.000Z',
        }),
    });
    renderApp('/sites/create');
    const format = await screen.findByLabelText(label('Date format'), {}, { timeout: 20_000 });
    await user.type(format, 'd.m.Y H:i');
    await user.type(screen.getByLabelText('A date as the feed writes it'), '05.11.2026 14:30');
    await user.click(screen.getByRole('button', { name: 'Convert and try' }));
    expect(await screen.findByText(/^Converted from PHP date format/)).toHaveTextContent(
      'Converted from PHP date format: DD.MM.YYYY HH:mm. The sample reads as 2026-11-05 14:30:00.',
    );
    expect(format).toHaveValue('DD.MM.YYYY HH:mm');
    expect(JSON.parse(api.calls.find((c) => c.path === '/api/parser/convert')?.body ?? '{}')).toEqual({
      date_parse_string: 'd.m.Y H:i',
      sample: '05.11.2026 14:30',
    });
  });

  test("the date format check shows the server's refusal", async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'POST /api/parser/convert': () =>
        validationFailure([
          {
            field: 'date_parse_string',
            code: 'date_format_unsupported',
            detail: 'The date parse string uses M',
          },
        ]),
    });
    renderApp('/sites/create');
    const format = await screen.findByLabelText(label('Date format'), {}, { timeout: 20_000 });
    await user.type(format, 'd M Y');
    await user.click(screen.getByRole('button', { name: 'Convert and try' }));
    expect(await screen.findByText('The date parse string uses M')).toHaveAttribute('role', 'alert');
    expect(format).toHaveValue('d M Y');
  });
});
