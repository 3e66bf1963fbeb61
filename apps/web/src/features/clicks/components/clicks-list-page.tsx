import { Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { ClicksLayout } from './clicks-layout.tsx';
import { type ClicksParams, ClicksRangeBar } from './clicks-range.tsx';

/** Rows per page of the click lists. */
export const CLICKS_LIMIT = 50;

/** What a click list call answers (useClicksList): a page of rows, their count, the 24-hour rule. */
interface ListAnswer<R> {
  isError: boolean;
  error?: unknown;
  isPending: boolean;
  data?: { items: R[]; total: number; available_at?: string | undefined } | undefined;
}

/**
 * The skeleton of every click list screen (clicks, impressions, geo clicks, pixel clicks, postback, click
 * sources, impression rate…): the frame with its tabs, the range bar (the statistics screens' picker, kept
 * in the URL) with the screen's own filters, notes above the table, and the paged table with 'No data for
 * this period' when empty.
 */
export function ClicksListPage<R>({
  frame,
  state,
  list,
  filters,
  children,
  columns,
  rowKey,
  minWidth,
  rows,
  total,
  limit = CLICKS_LIMIT,
  table,
}: {
  frame: Omit<Parameters<typeof ClicksLayout>[0], 'bar' | 'children'>;
  state: ClicksParams;
  list: ListAnswer<R>;
  /** The screen's own filters next to the range. */
  filters?: ReactNode;
  /** Notes, totals or a chart above the table. */
  children?: ReactNode;
  columns: Column<R>[];
  rowKey: (row: R) => string;
  minWidth?: number;
  /** The rows and count shown where they differ from the answer's (nothing to show: none). */
  rows?: R[];
  total?: number | undefined;
  limit?: number;
  /** Instead of the table (e.g. why it is hidden). */
  table?: ReactNode;
}) {
  const { t } = useTranslation('errors');
  return (
    <ClicksLayout
      {...frame}
      error={list.isError && (list.error ?? true)}
      availableAt={list.data?.available_at}
      bar={<ClicksRangeBar state={state}>{filters}</ClicksRangeBar>}
    >
      {children}
      {table ?? (
        <DataTable
          caption={frame.title}
          columns={columns}
          rows={rows ?? list.data?.items ?? []}
          rowKey={rowKey}
          loading={list.isPending}
          error={list.error}
          empty={<Text c="dimmed">{t('no_data_period')}</Text>}
          page={state.page}
          total={total !== undefined || rows !== undefined ? total : list.data?.total}
          limit={limit}
          onPage={(page) => state.update({ page: String(page) })}
          {...(minWidth === undefined ? {} : { minWidth })}
        />
      )}
    </ClicksLayout>
  );
}
