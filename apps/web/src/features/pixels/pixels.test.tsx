import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import { pixelFixture } from '../../test/advertiser-fixtures.ts';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('pixels', { timeout: 30_000 }, () => {
  test('the pixel page shows the code and the visitor count', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/pixels/3': () => json(pixelFixture({ visitors: 12 })),
    });
    renderApp('/users/7/pixels/3');
    expect(await screen.findByTestId('pixel-visitors', {}, { timeout: 10_000 })).toHaveTextContent('12');
    expect(screen.getByText(/data-pixel="3"/)).toBeInTheDocument();
  });

  test('a failed copy of the pixel code shows the copy error toast', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/pixels/3': () => json(pixelFixture()),
    });
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: () => Promise.reject(new Error('denied')) },
    });
    renderApp('/users/7/pixels/3');
    await user.click(await screen.findByRole('button', { name: 'Copy code' }, { timeout: 10_000 }));
    expect(await screen.findByText('Pixel code copy error')).toBeInTheDocument();
  });
});
