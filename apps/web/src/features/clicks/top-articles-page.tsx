import { type TopArticleSort, type TopArticlesPage, topArticleSorts } from '@adp/contract';
import { Anchor, Card, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { IconArrowDown, IconArrowsSort, IconArrowUp } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import type { Column } from '../../components/data-table.tsx';
import { formatNumber, formatPercent } from '../../lib/format.ts';
import { useClicksList } from './api/clicks-queries.ts';
import { ListFileButtons, useSiteFrame } from './clicks-pages.tsx';
import { ClicksListPage } from './components/clicks-list-page.tsx';
import { type ClicksParams, useClicksParams } from './components/clicks-range.tsx';

const LIMIT = 50;

/** The sort of the URL (`sort`, `order`), impressions first by default. */
function sortOf(state: ClicksParams): { sort: TopArticleSort; order: 'asc' | 'desc' } {
  const sort = topArticleSorts.find((s) => s === state.get('sort')) ?? 'impressions';
  const order = state.get('order') === 'asc' ? 'asc' : 'desc';
  return { sort, order };
}

function SortHeader({
  label,
  column,
  state,
}: {
  label: string;
  column: TopArticleSort;
  state: ClicksParams;
}) {
  const { t } = useTranslation('clicks');
  const { sort, order } = sortOf(state);
  const active = sort === column;
  const Icon = !active ? IconArrowsSort : order === 'asc' ? IconArrowUp : IconArrowDown;
  // a new column starts with the largest (or, for titles, A to Z); the active one turns around
  const next = active ? (order === 'desc' ? 'asc' : 'desc') : column === 'title' ? 'asc' : 'desc';
  return (
    <UnstyledButton
      onClick={() => state.update({ sort: column, order: next })}
      aria-label={t('sort_by', { column: label })}
      fw={700}
      fz="sm"
    >
      <Group gap={4} wrap="nowrap" component="span">
        {label}
        <Icon size={14} aria-hidden />
      </Group>
    </UnstyledButton>
  );
}

/** The article's path without the scheme, for the second line. */
function shortUrl(url: string): string {
  return url.replace(/^https?:\/\/(www\.)?/i, '');
}

function Totals({ totals }: { totals: TopArticlesPage['totals'] }) {
  const { t } = useTranslation('clicks');
  const cards = [
    [t('columns.impressions'), formatNumber(totals.impressions)],
    [t('columns.clicks'), formatNumber(totals.clicks)],
    [t('columns.ctr'), formatPercent(totals.ctr)],
  ];
  return (
    <SimpleGrid cols={{ base: 3 }} spacing="sm">
      {cards.map(([label, value]) => (
        <Card key={label} padding="sm" radius="md" withBorder>
          <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text fz="lg" fw={600}>
            {value}
          </Text>
        </Card>
      ))}
    </SimpleGrid>
  );
}

/**
 * /sites/:siteId/toparticles: the site's own articles shown in its widgets over the range, with their
 * impressions, clicks and CTR, sorted by any of them (the sort and the range are kept in the URL).
 */
export function SiteTopArticlesPage() {
  const { t } = useTranslation('clicks');
  const { id, frame } = useSiteFrame('toparticles');
  const state = useClicksParams();
  const { sort, order } = sortOf(state);
  const list = useClicksList('sites/toparticles', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
    sort,
    order,
  });
  type Row = TopArticlesPage['items'][number];
  const ariaSort = (column: TopArticleSort): Column<Row>['sort'] =>
    sort === column ? (order === 'asc' ? 'ascending' : 'descending') : 'none';
  const sortable = (column: TopArticleSort, label: string) => ({
    sort: ariaSort(column),
    headerCell: <SortHeader label={label} column={column} state={state} />,
  });
  const columns: Column<Row>[] = [
    {
      key: 'title',
      header: t('columns.article'),
      ...sortable('title', t('columns.article')),
      cell: (r) => (
        <Stack gap={0} miw={220}>
          {r.url ? (
            <Anchor href={r.url} target="_blank" rel="noopener noreferrer" fz="sm">
              {r.title || shortUrl(r.url)}
            </Anchor>
          ) : (
            <Text fz="sm" c="dimmed">
              {t('article_gone', { id: r.material_id })}
            </Text>
          )}
          {r.url ? (
            <Text fz="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {shortUrl(r.url)}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'impressions',
      header: t('columns.impressions'),
      ...sortable('impressions', t('columns.impressions')),
      cell: (r) => formatNumber(r.impressions),
      align: 'right',
    },
    {
      key: 'clicks',
      header: t('columns.clicks'),
      ...sortable('clicks', t('columns.clicks')),
      cell: (r) => formatNumber(r.clicks),
      align: 'right',
    },
    {
      key: 'ctr',
      header: t('columns.ctr'),
      ...sortable('ctr', t('columns.ctr')),
      cell: (r) => formatPercent(r.ctr),
      align: 'right',
    },
  ];
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      columns={columns}
      rowKey={(r) => r.material_id}
      limit={LIMIT}
      minWidth={560}
      filters={
        <ListFileButtons
          list={`sites/${encodeURIComponent(id)}/toparticles`}
          state={state}
          query={{ sort, order }}
        />
      }
    >
      <Text fz="xs" c="dimmed">
        {t('toparticles_note')}
      </Text>
      {list.data && list.data.total > 0 ? <Totals totals={list.data.totals} /> : null}
    </ClicksListPage>
  );
}
