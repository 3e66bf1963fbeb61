import { Table } from '@mantine/core';
import { type HTMLAttributes, type ReactNode, useEffect, useState } from 'react';

interface Overflow {
  /** The table is wider than its box: it scrolls sideways. */
  sideways: boolean;
  /** Columns are hidden to the left (scrolled) and to the right (more to see). */
  before: boolean;
  after: boolean;
}
const fits: Overflow = { sideways: false, before: false, after: false };

/** Whether `element` is wider inside than its box and which way it can scroll, watched as it resizes and scrolls. */
function useOverflowsSideways(element: HTMLElement | null): Overflow {
  const [overflow, setOverflow] = useState<Overflow>(fits);
  useEffect(() => {
    if (!element) return;
    const check = () => {
      const sideways = element.scrollWidth > element.clientWidth + 1;
      const before = sideways && element.scrollLeft > 1;
      const after = sideways && element.scrollLeft + element.clientWidth < element.scrollWidth - 1;
      setOverflow((o) =>
        o.sideways === sideways && o.before === before && o.after === after ? o : { sideways, before, after },
      );
    };
    check();
    const observer = new ResizeObserver(check);
    // the box, the scroll area's content and the table itself (rows that load or sort can widen it)
    for (const box of [element, element.firstElementChild, element.querySelector('table')])
      if (box) observer.observe(box);
    element.addEventListener('scroll', check, { passive: true });
    return () => {
      observer.disconnect();
      element.removeEventListener('scroll', check);
    };
  }, [element]);
  return overflow;
}

/** A shade along the edge where columns are hidden: on a phone it says the table goes on sideways. */
function EdgeShade({ side }: { side: 'left' | 'right' }) {
  return (
    <div
      aria-hidden
      data-table-shade={side}
      style={{
        position: 'absolute',
        top: 0,
        bottom: 0,
        [side]: 0,
        width: 16,
        pointerEvents: 'none',
        zIndex: 1,
        // mid-grey: a shadow on the light skin, a glow on the dark one
        boxShadow: `inset ${side === 'right' ? -12 : 12}px 0 10px -10px rgba(128, 128, 128, 0.6)`,
      }}
    />
  );
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
  const overflow = useOverflowsSideways(scroller);
  const focusable: HTMLAttributes<HTMLDivElement> = overflow.sideways
    ? // the outline inside the box: the scroll area's root clips what is drawn outside
      { tabIndex: 0, ...(label ? { role: 'region', 'aria-label': label } : {}), style: { outlineOffset: -2 } }
    : {};
  return (
    <div style={{ position: 'relative' }}>
      {type === 'native' ? (
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
      )}
      {overflow.before ? <EdgeShade side="left" /> : null}
      {overflow.after ? <EdgeShade side="right" /> : null}
    </div>
  );
}
