import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi, validationFailure } from '../../test/fixtures.ts';
import { paged, siteFixture, socialGroupFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };

describe('social page form', { timeout: 60_000 }, () => {
  test('autopublish stays locked until the rights check succeeds; a refused check says so', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    let group = socialGroupFixture();
    let allowed = false;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/socialgroups/3': () => json(group),
      'GET /api/sites': () => json(paged([siteFixture()])),
      'POST /api/socialgroups/3/check-rights': () => {
        if (!allowed)
          return validationFailure([
            { field: 'facebook_page_id', code: 'facebook_no_rights', detail: 'No rights to publish' },
          ]);
        group = socialGroupFixture({ rights_checked_at: '2026-02-01T10:00:00.000Z' });
        return json(group);
      },
      'PUT /api/socialgroups/3': (request) =>
        json(socialGroupFixture({ ...group, ...JSON.parse(request.body).socialgroup })),
    });
    renderApp('/social/3/edit');
    const autopublish = await screen.findByRole('switch', { name: /^Autopublish/ }, slow);
    expect(autopublish).toBeDisabled();
    expect(screen.getByText('Not checked yet')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Check publishing rights' }));
    // the card keeps saying so after the toast
    expect(await screen.findByTestId('rights-refused')).toHaveTextContent(
      'No rights to publish on this Facebook page',
    );
    expect(screen.getByRole('switch', { name: /^Autopublish/ })).toBeDisabled();

    allowed = true;
    await user.click(screen.getByRole('button', { name: 'Check publishing rights' }));
    await waitFor(() => expect(screen.getByRole('switch', { name: /^Autopublish/ })).toBeEnabled(), slow);
    expect(screen.queryByTestId('rights-refused')).toBeNull();
    await user.click(screen.getByRole('switch', { name: /^Autopublish/ }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true), slow);
    const sent = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}');
    expect(sent.socialgroup).toMatchObject({ autopublish: true });
    // the token is write-only: an empty field does not overwrite the stored one, and the site is fixed
    expect(sent.socialgroup).not.toHaveProperty('access_token');
    expect(sent.socialgroup).not.toHaveProperty('site_id');
  });

  test('the category blacklist is checked with the contract rule before sending', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites': () => json(paged([siteFixture()])),
    });
    renderApp('/social/create?site_id=5');
    await user.type(await screen.findByLabelText(/^Title/, {}, slow), 'Planet');
    await user.type(screen.getByLabelText(/^Facebook page id/), '1234567890');
    await user.type(screen.getByLabelText(/^Category blacklist/), 'politics, crime');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(
      await screen.findByText('Category blacklist must be comma-separated names without spaces'),
    ).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    expect(screen.getByRole('switch', { name: /^Autopublish/ })).toBeDisabled();
  });
});
