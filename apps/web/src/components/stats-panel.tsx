import {
  account,
  addDays,
  dayIn,
  platformCurrency,
  type StatsEntity,
  type StatsValues,
  statsAnswer,
} from '@adp/contract';
import { Alert, Card, Skeleton, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAuth } from '../lib/ability.tsx';
import { apiRequest } from '../lib/api-client.ts';
import { formatDateTime, formatMoney, formatNumber, formatPercent } from '../lib/format.ts';
import { StatsHiddenNotice, statsAccessCode } from './site-stats-access.tsx';
import { TableScroll } from './table-scroll.tsx';

/**
 * The days the panel shows: today and the six before it, days of the timezone `tz`; `tree`: from the
 * second stats tree (GET /api/stats2/{entity}/revenue?id=, the v2 screens), else GET /api/stats.
 */
const statsWeekQuery = (entity: StatsEntity, id: string, today: string, tz: string, tree: boolean) => {
  const from = addDays(today, -6);
  return {
    queryKey: ['stats', entity, id, { from, to: today, tz, tree }],
    queryFn: () =>
      tree
        ? apiRequest(`/stats2/${entity}/revenue`, { schema: statsAnswer, query: { id, from, to: today, tz } })
        : apiRequest(`/stats/${entity}/${encodeURIComponent(id)}`, {
            schema: statsAnswer,
            query: { from, to: today, group: 'day', tz },
          }),
  };
};

/** The browser's IANA timezone ('UTC' if it names none), so "today" is the user's today. */
export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/**
 * Why a statistics answer is empty under the 24-hour rule (its `available_at`): "Statistics appear 24
 * hours after registration: from <time>". Every statistics screen shows it for an answer that has one.
 */
export function StatsDelayNotice({ availableAt }: { availableAt: string }) {
  const { t } = useTranslation('stats');
  return (
    <Alert color="blue" variant="light" role="status" title={t('delay.title')}>
      {t('delay.message', { time: formatDateTime(availableAt) })}
    </Alert>
  );
}

const isEmpty = (v: StatsValues) =>
  !v.impressions && !v.viewable && !v.clicks && !v.invalid_clicks && !v.conversions && !v.spent && !v.earned;

/**
 * "Statistics" of a campaign, creative, site or widget: today's and the last 7 days' impressions,
 * viewable impressions, clicks, invalid clicks, CTR and spend (advertisers' entities) or earnings
 * (publishers'), from GET /api/stats, in the days of the viewer's timezone setting (else the browser's).
 * Amounts are in the platform currency; `tree` reads the second stats tree (the v2 screens of sites,
 * campaigns and creatives).
 */
export function StatsPanel({
  entity,
  id,
  tree = false,
}: {
  entity: StatsEntity;
  id: string;
  tree?: boolean;
}) {
  const { t } = useTranslation('stats');
  const { userId } = useAuth();
  const me = useQuery({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId ?? '')}`, { schema: account }),
    enabled: Boolean(userId),
    meta: { silent: true },
  });
  const tz = me.data?.timezone || browserTimeZone();
  const today = dayIn(new Date(), tz);
  // asked once the viewer's timezone is known (a failed lookup falls back to the browser's)
  const stats = useQuery({
    ...statsWeekQuery(entity, id, today, tz, tree && entity !== 'widgets'),
    enabled: !userId || !me.isPending,
  });
  // amounts are in the platform currency (the owner's display currency converts the balance only)
  const currency = platformCurrency;
  const advertiser = entity === 'campaigns' || entity === 'banners';
  const title = t('title');

  let body: ReactNode;
  if (stats.isPending) body = <Skeleton height={220} radius="sm" aria-busy="true" />;
  else if (statsAccessCode(stats.error))
    body = <StatsHiddenNotice code={statsAccessCode(stats.error) ?? undefined} />;
  else if (stats.isError)
    body = (
      <Alert color="red" variant="light" role="alert">
        {t('errors:error_title')}
      </Alert>
    );
  else if (stats.data.available_at) body = <StatsDelayNotice availableAt={stats.data.available_at} />;
  else {
    const week = stats.data.total;
    const day = stats.data.rows.find((r) => r.key === today) ?? { key: today, ...zero };
    const metrics: { key: string; label: string; value: (v: StatsValues) => string }[] = [
      { key: 'impressions', label: t('impressions'), value: (v) => formatNumber(v.impressions) },
      { key: 'viewable', label: t('viewable'), value: (v) => formatNumber(v.viewable) },
      { key: 'clicks', label: t('clicks'), value: (v) => formatNumber(v.clicks) },
      { key: 'invalid_clicks', label: t('invalid_clicks'), value: (v) => formatNumber(v.invalid_clicks) },
      { key: 'ctr', label: t('ctr'), value: (v) => formatPercent(v.ctr) },
      advertiser
        ? { key: 'spent', label: t('spent'), value: (v) => formatMoney(v.spent, currency) }
        : { key: 'earned', label: t('earned'), value: (v) => formatMoney(v.earned, currency) },
    ];
    body = (
      <>
        <TableScroll minWidth={280} type="native" label={t('caption')}>
          <Table verticalSpacing="xs" horizontalSpacing="xs" aria-label={t('caption')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">{t('metric')}</Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {t('today')}
                </Table.Th>
                <Table.Th scope="col" style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>
                  {t('last_7_days')}
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {metrics.map((m) => (
                <Table.Tr key={m.key}>
                  {/* a long label ("Недействительные клики") breaks, so three columns fit a phone */}
                  <Table.Th scope="row" fw={500} style={{ hyphens: 'auto', overflowWrap: 'anywhere' }}>
                    {m.label}
                  </Table.Th>
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>{m.value(day)}</Table.Td>
                  <Table.Td style={{ textAlign: 'right', whiteSpace: 'nowrap' }}>{m.value(week)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
        {isEmpty(week) ? (
          <Text fz="sm" c="dimmed" role="status">
            {t('empty')}
          </Text>
        ) : null}
        <Text fz="xs" c="dimmed">
          {t('timezone', { tz })}
        </Text>
      </>
    );
  }

  return (
    <Card padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <Title order={2} fz="lg">
          {title}
        </Title>
        {body}
      </Stack>
    </Card>
  );
}

const zero: StatsValues = {
  impressions: 0,
  viewable: 0,
  clicks: 0,
  invalid_clicks: 0,
  conversions: 0,
  ctr: 0,
  ecpm: 0,
  spent: 0,
  earned: 0,
};
