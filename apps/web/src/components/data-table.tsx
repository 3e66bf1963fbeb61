import { Card, Center, Group, Pagination, Skeleton, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../lib/api-client.ts';
import { TableScroll } from './table-scroll.tsx';

export interface Column<T> {
  key: string;
  header: ReactNode;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right' | 'center';
  /** Header content that replaces `header`, e.g. a sort button. */
  headerCell?: ReactNode;
  /** aria-sort of the header cell. */
  sort?: 'ascending' | 'descending' | 'none';
  /** Keeps dates, amounts and badges on one line. */
  nowrap?: boolean;
}

/**
 * A table with real headers, loading rows, an empty text and server paging. A list that could not be read
 * (`error`: a 404 for an account or item the reader may not see) says so rather than looking empty.
 */
export function DataTable<T>({
  columns,
  rows,
  rowKey,
  loading,
  error,
  empty,
  page,
  total,
  limit,
  onPage,
  caption,
  onRowClick,
  rowLabel,
  minWidth = 560,
}: {
  minWidth?: number;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  loading?: boolean;
  /** The list query's error, if it failed. */
  error?: unknown;
  empty?: ReactNode;
  page?: number;
  total?: number;
  limit?: number;
  onPage?: (page: number) => void;
  /** Names the table for screen readers, and its scrolling box while it scrolls sideways (required: a
   * focusable box without a name is announced as nothing). */
  caption: string;
  onRowClick?: (row: T) => void;
  rowLabel?: (row: T) => string;
}) {
  const { t } = useTranslation();
  const pages = total !== undefined && limit ? Math.max(1, Math.ceil(total / limit)) : 1;
  return (
    <Card padding={0} radius="md">
      <TableScroll minWidth={minWidth} label={caption}>
        <Table verticalSpacing="sm" horizontalSpacing="md" highlightOnHover={Boolean(onRowClick)}>
          {caption ? (
            <caption
              style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
            >
              {caption}
            </caption>
          ) : null}
          <Table.Thead>
            <Table.Tr>
              {columns.map((column) => (
                <Table.Th
                  key={column.key}
                  style={{ textAlign: column.align ?? 'left', whiteSpace: 'nowrap' }}
                  aria-sort={column.sort}
                >
                  {column.headerCell ?? column.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {loading
              ? [0, 1, 2].map((i) => (
                  <Table.Tr key={`loading-${i}`}>
                    {columns.map((column) => (
                      <Table.Td key={column.key}>
                        <Skeleton height={14} radius="sm" />
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))
              : rows.map((row) => (
                  <Table.Tr
                    key={rowKey(row)}
                    onClick={onRowClick ? () => onRowClick(row) : undefined}
                    style={onRowClick ? { cursor: 'pointer' } : undefined}
                    aria-label={rowLabel?.(row)}
                  >
                    {columns.map((column) => (
                      <Table.Td
                        key={column.key}
                        style={{
                          textAlign: column.align ?? 'left',
                          whiteSpace: column.nowrap ? 'nowrap' : undefined,
                        }}
                      >
                        {column.cell(row)}
                      </Table.Td>
                    ))}
                  </Table.Tr>
                ))}
          </Table.Tbody>
        </Table>
      </TableScroll>
      {!loading && rows.length === 0 ? (
        <Center p="lg">
          {error ? (
            <Text c="red" role="alert">
              {error instanceof ApiError && error.status === 404
                ? t('errors:not_found')
                : t('errors:generic')}
            </Text>
          ) : (
            <Text c="dimmed">{empty ?? t('table.empty')}</Text>
          )}
        </Center>
      ) : null}
      {onPage && pages > 1 ? (
        <Stack p="sm">
          <Group justify="space-between" gap="xs">
            <Text c="dimmed" fz="sm">
              {t('table.total', { count: total ?? 0 })}
            </Text>
            <Pagination
              value={page ?? 1}
              total={pages}
              onChange={onPage}
              size="sm"
              getControlProps={(control) => ({
                'aria-label': t(`table.${control}`),
              })}
              getItemProps={(item) => ({ 'aria-label': t('table.page', { page: item }) })}
            />
          </Group>
        </Stack>
      ) : null}
    </Card>
  );
}
