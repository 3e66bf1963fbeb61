import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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

  test('the preview frames the landing from the origin of the dashboard; the link names its public address', async () => {
    loginAs('default', '7');
    mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      // PUBLIC_URL (adp.example) is not where this dashboard runs: a page only lets its own origin frame it
      'GET /api/landings/9': () =>
        json(landingFixture({ html: '<main>Hi</main>', generated_at: '2026-01-03T10:00:00.000Z' })),
      'GET /api/landings/9/leads': () => json(pageOf([])),
    });
    renderApp('/landings/9/edit');
    const frame = await screen.findByTitle('Landing page preview', {}, { timeout: 10_000 });
    expect(frame.getAttribute('src')).toBe('/l/free-trial-9');
    expect(screen.getByRole('link', { name: /adp\.example\/l\/free-trial-9/ })).toHaveAttribute(
      'href',
      'https://adp.example/l/free-trial-9',
    );
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

  test('Upload image puts the uploaded image where the cursor is in the HTML and saves the page', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const html = '<main><p>Hi</p></main>';
    const url = 'https://adp.example/uploads/landings/9-0123456789abcdef.png';
    let uploadStatus = 201;
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/landings/9': () => json(landingFixture({ html, generated_at: '2026-01-03T10:00:00.000Z' })),
      'GET /api/landings/9/leads': () => json(pageOf([])),
      'POST /api/landings/9/images': () =>
        uploadStatus === 201
          ? json({ url }, 201)
          : json(
              {
                statusCode: 422,
                code: 'validation',
                message: 'Invalid input',
                errors: [{ field: 'file', code: 'image_too_large', detail: 'The image is larger than 5 MB' }],
              },
              422,
            ),
      'PUT /api/landings/9': (r) => json(landingFixture({ html: JSON.parse(r.body).landing.html })),
    });
    renderApp('/landings/9/edit');
    const editor = (await screen.findByLabelText(
      /^Page HTML/,
      {},
      { timeout: 10_000 },
    )) as HTMLTextAreaElement;
    expect(screen.getByRole('button', { name: 'Upload image' })).toBeInTheDocument();
    editor.focus();
    editor.setSelectionRange('<main>'.length, '<main>'.length);
    fireEvent.select(editor);
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    expect(input.accept).toBe('image/png,image/jpeg,image/webp,image/gif');
    await user.upload(
      input,
      new File([new Uint8Array([137, 80, 78, 71])], 'hero_banner.png', { type: 'image/png' }),
    );
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const upload = api.calls.find((c) => c.path === '/api/landings/9/images');
    expect(upload?.headers.get('Content-Type')).toBeNull();
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}');
    expect(body.landing.html).toBe(
      `<main><img src="${url}" alt="hero banner" style="max-width:100%;height:auto"><p>Hi</p></main>`,
    );
    expect(await screen.findByText('Image added to the page')).toBeInTheDocument();
    expect(editor.value).toContain(`<img src="${url}"`);

    // a refused file: the server's message is shown and nothing is saved
    uploadStatus = 422;
    const puts = api.calls.filter((c) => c.method === 'PUT').length;
    await user.upload(
      input,
      new File([new Uint8Array([137, 80, 78, 71])], 'huge.png', { type: 'image/png' }),
    );
    expect(await screen.findByText(/The image is larger than 5 MB/)).toBeInTheDocument();
    expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(puts);
  });

  test('at phone width each lead is a card of labelled values, so a long e-mail shows in full', async () => {
    const wide = window.matchMedia;
    window.matchMedia = (query: string) => ({ ...wide(query), matches: query.includes('max-width: 36em') });
    try {
      loginAs('default', '7');
      const email = 'alexandra.konstantinopolskaya@very-long-company-domain.example';
      mockApi({
        'GET /api/auth/me': () => json(meFixture('default', '7')),
        'GET /api/landings/9': () =>
          json(
            landingFixture({
              leads: 1,
              form: {
                fields: [
                  { name: 'email', label: 'E-mail', type: 'email', required: true },
                  { name: 'phone', label: 'Phone number', type: 'phone', required: false },
                ],
                submit_label: '',
              },
            }),
          ),
        'GET /api/landings/9/leads': () =>
          json(pageOf([{ _id: '1', landing_id: '9', data: { email }, date: '2026-01-03T10:00:00.000Z' }])),
      });
      renderApp('/landings/9/edit');
      const list = await screen.findByRole('list', { name: 'Leads' }, { timeout: 10_000 });
      expect(screen.queryByRole('table', { name: 'Leads' })).toBeNull();
      const card = within(list).getByRole('listitem');
      const terms = within(card)
        .getAllByRole('term')
        .map((el) => el.textContent);
      expect(terms).toEqual(['Date', 'E-mail', 'Phone number']);
      const values = within(card)
        .getAllByRole('definition')
        .map((el) => el.textContent);
      expect(values.slice(1)).toEqual([email, '—']);
    } finally {
      window.matchMedia = wide;
    }
  });

  test('with no cursor placed, the image goes to the top of the content, after the styles', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    const html = '<style>p{color:red}</style><main><p>Hi</p></main>';
    const url = 'https://adp.example/uploads/landings/9-fedcba9876543210.webp';
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/landings/9': () => json(landingFixture({ html, generated_at: '2026-01-03T10:00:00.000Z' })),
      'GET /api/landings/9/leads': () => json(pageOf([])),
      'POST /api/landings/9/images': () => json({ url }, 201),
      'PUT /api/landings/9': (r) => json(landingFixture({ html: JSON.parse(r.body).landing.html })),
    });
    renderApp('/landings/9/edit');
    await screen.findByRole('button', { name: 'Upload image' }, { timeout: 10_000 });
    const input = document.querySelector('input[type="file"]') as HTMLInputElement;
    await user.upload(
      input,
      new File([new Uint8Array([82, 73, 70, 70])], 'top.webp', { type: 'image/webp' }),
    );
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    const body = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}');
    expect(body.landing.html).toBe(
      `<style>p{color:red}</style><img src="${url}" alt="top" style="max-width:100%;height:auto"><main><p>Hi</p></main>`,
    );
  });
});
