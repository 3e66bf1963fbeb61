import type { PageQuery } from '@adp/contract';

/** The shape of every list answer (DESIGN.md: `{items, total, page, limit}`). */
export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  limit: number;
}

/**
 * One page of a list and the count of the whole list, for repositories. `count` is a query answering
 * `[{ n }]` over the same filter as `rows`; `rows` gets the window (limit, offset) of the asked page.
 */
export async function pageOf<Row, T>(
  q: PageQuery,
  count: PromiseLike<{ n: number }[]>,
  rows: (window: { limit: number; offset: number }) => PromiseLike<Row[]>,
  map: (row: Row) => T,
): Promise<Page<T>> {
  const [total] = await count;
  const items = await rows({ limit: q.limit, offset: (q.page - 1) * q.limit });
  return { items: items.map(map), total: Number(total?.n ?? 0), page: q.page, limit: q.limit };
}

/** A `LIKE` pattern matching `text` anywhere, with the wildcards a user typed taken literally. */
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
