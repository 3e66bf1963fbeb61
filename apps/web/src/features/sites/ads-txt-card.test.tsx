import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { siteFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };

test('the site page shows the owner’s ads.txt line and the check says whether it is there', {
  timeout: 60_000,
}, async () => {
  const user = userEvent.setup();
  loginAs('default', '7');
  let checks = 0;
  mockApi({
    'GET /api/auth/me': () => json(meFixture('default', '7')),
    'GET /api/sites/5': () => json(siteFixture()),
    'GET /api/sites/5/adstxt': () =>
      json({ line: 'localhost, 7, DIRECT', seller_id: '7', url: 'https://daily-planet.example/ads.txt' }),
    'POST /api/sites/5/adstxt/check': () => {
      checks += 1;
      return json({
        found: checks > 1,
        url: 'https://daily-planet.example/ads.txt',
        status: 200,
        error: null,
        checked_at: '2026-01-01T00:00:00.000Z',
      });
    },
  });
  renderApp('/sites/5');
  const card = await screen.findByRole('region', { name: 'ads.txt' }, slow);
  expect(await within(card).findByTestId('adstxt-line')).toHaveTextContent('localhost, 7, DIRECT');
  expect(within(card).getByRole('button', { name: 'Copy line' })).toBeInTheDocument();
  await user.click(within(card).getByRole('button', { name: 'Check ads.txt' }));
  expect(
    await within(card).findByText('The line is not in https://daily-planet.example/ads.txt yet'),
  ).toBeInTheDocument();
  await user.click(within(card).getByRole('button', { name: 'Check ads.txt' }));
  expect(
    await within(card).findByText('The line is in https://daily-planet.example/ads.txt'),
  ).toBeInTheDocument();
});
