import type { Site, SiteAdsenseDay } from '@adp/contract';
import { Card, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type Column, DataTable } from '../../../components/data-table.tsx';
import { MoneyText } from '../../../components/money-text.tsx';
import { formatDate, formatNumber } from '../../../lib/format.ts';
import { useSiteAdsenseDays } from '../api/sites-queries.ts';

const LIMIT = 10;

/**
 * The site's AdSense days that an approved import credited (GET /api/sites/{id}/adsense-incomes), newest
 * first: what AdSense counted and the site's share added to the owner's balance. Not shown for a site
 * without any (most sites run no AdSense).
 */
export function SiteAdsenseCard({ site }: { site: Site }) {
  const { t } = useTranslation('adsense');
  const [page, setPage] = useState(1);
  const days = useSiteAdsenseDays(site._id, page, LIMIT);
  if (!days.data?.total) return null;
  // a member of an agency gets the share less the agency's rate: then both are shown
  const agencyCut = days.data.items.some(
    (d) => d.publisher_income !== null && d.publisher_income !== d.site_income,
  );
  const columns: Column<SiteAdsenseDay>[] = [
    { key: 'date', header: t('fields:date'), cell: (d) => formatDate(d.date), nowrap: true },
    // what was credited first: on a phone the table scrolls, and this column is the one that matters
    {
      key: 'site_income',
      header: t('columns.site_income'),
      cell: (d) => <MoneyText amount={d.site_income} fz="sm" />,
      align: 'right',
      nowrap: true,
    },
    ...(agencyCut
      ? [
          {
            key: 'publisher_income',
            header: t('columns.publisher_income'),
            cell: (d: SiteAdsenseDay) =>
              d.publisher_income === null ? '—' : <MoneyText amount={d.publisher_income} fz="sm" />,
            align: 'right' as const,
            nowrap: true,
          },
        ]
      : []),
    {
      key: 'page_views',
      header: t('fields:page_views'),
      cell: (d) => formatNumber(d.page_views),
      align: 'right',
    },
    {
      key: 'impressions',
      header: t('fields:impressions'),
      cell: (d) => formatNumber(d.impressions),
      align: 'right',
    },
    { key: 'clicks', header: t('fields:clicks'), cell: (d) => formatNumber(d.clicks), align: 'right' },
  ];
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('site_card.title')}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('site_card.title')}
        </Title>
        <Text fz="sm" c="dimmed">
          {t('site_card.help')}
        </Text>
        <DataTable
          columns={columns}
          rows={days.data.items}
          rowKey={(d) => `${d.date}:${d.import_id}`}
          page={page}
          total={days.data.total}
          limit={LIMIT}
          onPage={setPage}
          caption={t('site_card.title')}
          minWidth={420}
        />
      </Stack>
    </Card>
  );
}
