import { promotionPage } from '@adp/contract';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const slow = { timeout: 20_000 };

const pageFixture = (image: string | null = null) =>
  promotionPage.parse({
    _id: '2',
    user_id: '7',
    site_id: '5',
    promotion_id: '1',
    title: 'Subscribe now',
    text: 'Half price',
    url: 'https://planet.example/s',
    status: 'active',
    image,
    created_at: '2026-01-01T00:00:00.000Z',
  });

describe('promotion page form', { timeout: 60_000 }, () => {
  test('a title over 60 characters is refused before sending; an uploaded image is shown', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/promotionpages/2': () => json(pageFixture()),
      'POST /api/promotionpages/2/image': () =>
        json(pageFixture('https://cdn.example/uploads/promotions/2.png')),
    });
    renderApp('/promotions/1/pages/2/edit');
    const title = await screen.findByLabelText(/^Title/, {}, slow);
    await user.clear(title);
    await user.type(title, 'x'.repeat(61));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Title is too long (maximum is 60 characters)')).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(
      input,
      new File([new Uint8Array([137, 80, 78, 71])], 'banner.png', { type: 'image/png' }),
    );
    await waitFor(
      () => expect(screen.getByRole('img', { name: 'Image of Subscribe now' })).toBeInTheDocument(),
      slow,
    );
    const upload = api.calls.find((c) => c.path === '/api/promotionpages/2/image');
    // multipart: the browser sets the boundary, so no JSON content type is sent
    expect(upload?.headers.get('Content-Type')).toBeNull();
  });
});
