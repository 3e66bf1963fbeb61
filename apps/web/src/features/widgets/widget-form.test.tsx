import { widgetSettings } from '@adp/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { json, loginAs, meFixture, mockApi } from '../../test/fixtures.ts';
import { previewItems, siteFixture, stubEmbedScript, widgetFixture } from '../../test/publisher-fixtures.ts';
import { renderApp } from '../../test/render.tsx';

const label = (text: string) => new RegExp(`^${text}\\s*\\*?$`);
const slow = { timeout: 20_000 };

function previewAnswer(body: string) {
  const { widget } = JSON.parse(body) as { widget: { settings: unknown } };
  return json({ settings: widgetSettings.parse(widget.settings), items: previewItems });
}

afterEach(() => {
  delete window.AdpWidget;
});

describe('widget form', { timeout: 60_000 }, () => {
  test('a changed setting is posted to the preview and rendered with the embed script', async () => {
    loginAs('default', '7');
    const embed = stubEmbedScript();
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/sites/5': () => json(siteFixture()),
      'POST /api/widgets/preview': (request) => previewAnswer(request.body),
    });
    renderApp('/sites/5/widgets/create');
    const columns = await screen.findByLabelText(label('Columns'), {}, slow);
    await waitFor(() => expect(embed.render).toHaveBeenCalled(), slow);
    const first = embed.render.mock.calls[0] as unknown as [
      HTMLElement,
      { columns: number },
      unknown[],
      unknown,
    ];
    expect(first[1].columns).toBe(4);
    expect(first[3]).toEqual({ storage: null });

    fireEvent.change(columns, { target: { value: '3' } });
    await waitFor(() => {
      const bodies = api.calls
        .filter((c) => c.path === '/api/widgets/preview')
        .map((c) => JSON.parse(c.body));
      expect(bodies.at(-1)?.widget).toMatchObject({ site_id: '5', settings: { columns: 3 } });
    }, slow);
    await waitFor(
      () => expect(embed.update).toHaveBeenCalledWith(expect.objectContaining({ columns: 3 }), previewItems),
      slow,
    );
  });

  test('the builder adds, reorders and removes blocks and saves them in order', async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    stubEmbedScript();
    const builder = widgetFixture({
      settings: widgetSettings.parse({ type: 'builder', blocks: [{ type: 'native', format: 0, items: 4 }] }),
    });
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/widgets/9': () => json(builder),
      'GET /api/sites/5': () => json(siteFixture()),
      'POST /api/widgets/preview': (request) => previewAnswer(request.body),
      'PUT /api/widgets/9': (request) => json(widgetFixture(JSON.parse(request.body).widget)),
    });
    renderApp('/widgets/9/edit');
    const group = await screen.findByRole('group', { name: 'Builder blocks' }, slow);
    await user.click(within(group).getByRole('button', { name: 'Add block' }));
    await user.click(within(group).getAllByLabelText('Block 2 type')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: '3-2-1' }));
    await user.click(within(group).getAllByLabelText('Block 2 format')[0] as HTMLElement);
    await user.click(await screen.findByRole('option', { name: '8: Mosaic' }));
    await user.click(within(group).getByRole('button', { name: 'Move block 2 up' }));
    await user.click(within(group).getByRole('button', { name: 'Add block' }));
    await user.click(within(group).getByRole('button', { name: 'Remove block 3' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true), slow);
    const sent = JSON.parse(api.calls.find((c) => c.method === 'PUT')?.body ?? '{}');
    expect(sent.widget.settings.blocks).toEqual([
      { type: '3_2_1', format: 8, items: 4 },
      { type: 'native', format: 0, items: 4 },
    ]);
  });

  test("an emptied number is can't be empty, not the setting's default saved silently", async () => {
    const user = userEvent.setup();
    loginAs('default', '7');
    stubEmbedScript();
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/widgets/9': () => json(widgetFixture({ settings: widgetSettings.parse({ columns: 3 }) })),
      'GET /api/sites/5': () => json(siteFixture()),
      'POST /api/widgets/preview': (request) => previewAnswer(request.body),
      'PUT /api/widgets/9': (request) => json(widgetFixture(JSON.parse(request.body).widget)),
    });
    renderApp('/widgets/9/edit');
    const columns = await screen.findByLabelText(label('Columns'), {}, slow);
    await user.clear(columns);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText("Columns can't be empty", {}, slow)).toBeInTheDocument();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  /** Widget 9's page, as its owner sees it. */
  function openWidgetPage(site = siteFixture()) {
    loginAs('default', '7');
    stubEmbedScript();
    const api = mockApi({
      'GET /api/auth/me': () => json(meFixture('default', '7')),
      'GET /api/widgets/9': () => json(widgetFixture()),
      'GET /api/sites/5': () => json(site),
      'POST /api/widgets/preview': (request) => previewAnswer(request.body),
    });
    renderApp('/widgets/9');
    return api;
  }

  test('statistics an admin hid: a notice in their place, no statistics asked, no way to them', async () => {
    const api = openWidgetPage(siteFixture({ stats_visible: false }));
    expect(
      await screen.findByText("An administrator has hidden this site's statistics.", {}, slow),
    ).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Widget clicks' })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Statistics' })).toBeNull();
    expect(api.calls.filter((c) => c.path.startsWith('/api/stats'))).toEqual([]);
  });

  test('a refused clipboard shows the Copy error! toast', async () => {
    const user = userEvent.setup();
    openWidgetPage();
    const copy = await screen.findByRole('button', { name: 'Copy code' }, slow);
    expect(screen.getByTestId('embed-code')).toHaveTextContent(
      `<div data-adp-widget="9"></div><script async src="${window.location.origin}/widget.js"></script>`,
    );
    const writeText = vi.fn().mockRejectedValue(new Error('denied'));
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await user.click(copy);
    expect(await screen.findByText('Copy error!')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalled();
  });

  test('the embed code points at PUBLIC_URL, which the server names in the page', async () => {
    const meta = document.createElement('meta');
    meta.name = 'adp-public-url';
    meta.content = 'https://ads.example.com';
    document.head.append(meta);
    try {
      openWidgetPage();
      expect(await screen.findByTestId('embed-code', {}, slow)).toHaveTextContent(
        '<div data-adp-widget="9"></div><script async src="https://ads.example.com/widget.js"></script>',
      );
    } finally {
      meta.remove();
    }
  });
});
