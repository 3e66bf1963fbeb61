import { MantineProvider, Table } from '@mantine/core';
import { fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { TableScroll } from './table-scroll.tsx';

/** jsdom lays nothing out: every box reports `scrollWidth` inside and `clientWidth` outside. */
function layOut(scrollWidth: number, clientWidth: number) {
  vi.spyOn(HTMLElement.prototype, 'scrollWidth', 'get').mockReturnValue(scrollWidth);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(clientWidth);
}

const table = (
  <Table>
    <Table.Tbody>
      <Table.Tr>
        <Table.Td>1 054</Table.Td>
      </Table.Tr>
    </Table.Tbody>
  </Table>
);

afterEach(() => {
  vi.restoreAllMocks();
});

describe.each(['scrollarea', 'native'] as const)('TableScroll (%s)', (type) => {
  test('a table wider than the screen scrolls from the keyboard: a named region in the tab order', () => {
    layOut(900, 360);
    render(
      <MantineProvider>
        <TableScroll label="By country" minWidth={900} type={type}>
          {table}
        </TableScroll>
      </MantineProvider>,
    );
    const region = screen.getByRole('region', { name: 'By country' });
    expect(region).toHaveAttribute('tabindex', '0');
    expect(region).toContainElement(screen.getByRole('table'));
  });

  test('a table that fits adds no tab stop and no region', () => {
    layOut(900, 900);
    const { container } = render(
      <MantineProvider>
        <TableScroll label="By country" minWidth={360} type={type}>
          {table}
        </TableScroll>
      </MantineProvider>,
    );
    expect(screen.queryByRole('region')).toBeNull();
    expect(container.querySelector('[tabindex]')).toBeNull();
    expect(container.querySelector('[data-table-shade]')).toBeNull();
  });

  test('a shade marks the edge where columns are hidden, and follows the scrolling', () => {
    layOut(900, 360);
    let scrollLeft = 0;
    vi.spyOn(HTMLElement.prototype, 'scrollLeft', 'get').mockImplementation(() => scrollLeft);
    const { container } = render(
      <MantineProvider>
        <TableScroll label="By country" minWidth={900} type={type}>
          {table}
        </TableScroll>
      </MantineProvider>,
    );
    const shades = () =>
      [...container.querySelectorAll('[data-table-shade]')].map((e) => e.getAttribute('data-table-shade'));
    expect(shades()).toEqual(['right']);
    const region = screen.getByRole('region', { name: 'By country' });
    scrollLeft = 200;
    fireEvent.scroll(region);
    expect(shades()).toEqual(['left', 'right']);
    scrollLeft = 540;
    fireEvent.scroll(region);
    expect(shades()).toEqual(['left']);
  });
});
