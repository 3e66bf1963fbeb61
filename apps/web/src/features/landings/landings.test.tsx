import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeAll, describe, expect, test } from 'vitest';
import { landingFixture, pageOf, stubFonts } from '../../test/advertiser-fixtures.ts';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { renderApp } from '../../test/render.tsx';

describe('landings', { timeout: 30_000 }, () => {
  beforeAll(stubFonts);

  test('generating before the form has fields says the landing needs a form first', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/landings/9': () => json(landingFixture()),
      'GET /api/landings/9/leads': () => json(pageOf([])),
    });
    renderApp('/landings/9/edit');
    await user.click(await screen.findByRole('button', { name: 'Generate' }, { timeout: 10_000 }));
    expect(await screen.findByText('Landing needs a form first')).toBeInTheDocument();
    expect(api.calls.some((c) => c.path === '/api/landings/generate')).toBe(false);
  });

  test('the form builder adds fields and saves them in order', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/landings/9': () => json(landingFixture()),
      'GET /api/landings/9/leads': () => json(pageOf([])),
      'PUT /api/landings/9': () => json(landingFixture()),
    });
    renderApp('/landings/9/edit');
    await user.click(await screen.findByRole('button', { name: 'Add field' }, { timeout: 10_000 }));
    await user.click(screen.getByRole('button', { name: 'Add field' }));
    const labels = screen.getAllByLabelText(/^Label/);
    await user.type(labels[0] as HTMLElement, 'Name');
    await user.type(labels[1] as HTMLElement, 'Email');
    await user.click(screen.getAllByRole('button', { name: 'Move up' })[1] as HTMLElement);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}');
    expect(body.landing.form.fields.map((f: { label: string }) => f.label)).toEqual(['Email', 'Name']);
  });
});
