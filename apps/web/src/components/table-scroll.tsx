import { Table } from '@mantine/core';
import { type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';

/** Whether `element` is wider inside than its box (its table scrolls sideways), watched as either resizes. */
function useOverflowsSideways(element: HTMLElement | null): boolean {
  const [overflows, setOverflows] = useState(false);
  useEffect(() => {
    if (!element) return;
    const check = () => setOverflows(element.scrollWidth > element.clientWidth + 1);
    check();
    const observer = new ResizeObserver(check);
    // the box, the scroll area's content and the table itself (rows that load or sort can widen it)
    for (const box of [element, element.firstElementChild, element.querySelector('table')])
      if (box) observer.observe(box);
    return () => observer.disconnect();
  }, [element]);
  return overflows;
}

/**
 * Mantine's Table.ScrollContainer that a keyboard scrolls too: while the table is wider than the screen (a
 * phone), the scrolling box is a named region in the tab order, so Tab reaches it and the arrow keys scroll
 * it even when no cell holds a link or button (WCAG 2.1.1; axe's scrollable-region-focusable). A table that
 * fits adds no tab stop.
 * @param label names the region: the table's caption (without one, the box is only focusable)
 */
export function TableScroll({
  label,
  minWidth,
  type = 'scrollarea',
  children,
}: {
  label: string;
  minWidth: number;
  type?: 'scrollarea' | 'native';
  children: ReactNode;
}) {
  const [scroller, setScroller] = useState<HTMLDivElement | null>(null);
  const focusable: HTMLAttributes<HTMLDivElement> = useOverflowsSideways(scroller)
    ? // the outline inside the box: the scroll area's root clips what is drawn outside
      { tabIndex: 0, ...(label ? { role: 'region', 'aria-label': label } : {}), style: { outlineOffset: -2 } }
    : {};
  return type === 'native' ? (
    <Table.ScrollContainer ref={setScroller} minWidth={minWidth} type="native" {...focusable}>
      {children}
    </Table.ScrollContainer>
  ) : (
    <Table.ScrollContainer
      minWidth={minWidth}
      scrollAreaProps={{ viewportRef: setScroller, viewportProps: focusable }}
    >
      {children}
    </Table.ScrollContainer>
  );
}
