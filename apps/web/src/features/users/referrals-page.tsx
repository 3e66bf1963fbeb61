import type { ReferralSummary } from '@adp/contract';
import { BarChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import {
  ActionIcon,
  Alert,
  Anchor,
  Card,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  TextInput,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCheck, IconCopy } from '@tabler/icons-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { type Column, DataTable } from '../../components/data-table.tsx';
import { MoneyText } from '../../components/money-text.tsx';
import { useOtherOwnerName } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { ApiError } from '../../lib/api-client.ts';
import { formatDate, formatMoney, formatMonth, formatPercent } from '../../lib/format.ts';
import { notifyErrorMessage } from '../../lib/notify.ts';
import { useReferrals, useUser } from './api/users-queries.ts';

function CopyLink({ url, other }: { url: string; other: string | undefined }) {
  const { t } = useTranslation('users');
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(url);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      notifyErrorMessage(t('errors:copy'));
    }
  };
  return (
    <TextInput
      label={other ? t('referrals.link_of', { name: other }) : t('referrals.link')}
      value={url}
      readOnly
      onFocus={(event) => event.currentTarget.select()}
      rightSection={
        <Tooltip label={copied ? t('referrals.copied') : t('referrals.copy')} withArrow>
          <ActionIcon
            variant="subtle"
            color={copied ? 'teal' : undefined}
            onClick={() => void copy()}
            aria-label={t('referrals.copy')}
          >
            {copied ? <IconCheck size={16} aria-hidden /> : <IconCopy size={16} aria-hidden />}
          </ActionIcon>
        </Tooltip>
      }
    />
  );
}

/** `other`: the name of the user whose page an admin or its agency looks at (the texts then name it). */
function Summary({ summary, other }: { summary: ReferralSummary; other: string | undefined }) {
  const { t } = useTranslation('users');
  const ability = useAppAbility();
  const earnings = [...summary.earnings].sort((a, b) => a.month.localeCompare(b.month));
  const referredColumns: Column<ReferralSummary['referred'][number]>[] = [
    {
      key: 'name',
      header: t('fields:name'),
      cell: (r) =>
        ability.can('manage', 'ACL') ? (
          <Anchor component={Link} to={`/users/${r._id}`}>
            {r.name}
          </Anchor>
        ) : (
          r.name
        ),
    },
    { key: 'date', header: t('referrals.joined'), cell: (r) => formatDate(r.date) },
  ];
  const earningColumns: Column<ReferralSummary['earnings'][number]>[] = [
    { key: 'month', header: t('referrals.month'), cell: (e) => formatMonth(e.month) },
    { key: 'sum', header: t('referrals.earned'), align: 'right', cell: (e) => <MoneyText amount={e.sum} /> },
  ];
  return (
    <Stack gap="md">
      <Card padding="lg" radius="md">
        <Stack gap="sm">
          <CopyLink url={summary.affiliate_url} other={other} />
          <Text c="dimmed" fz="sm">
            {other
              ? t('referrals.how_other', { name: other, percent: formatPercent(summary.earn_percent) })
              : t('referrals.how', { percent: formatPercent(summary.earn_percent) })}
          </Text>
        </Stack>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Card padding="md" radius="md">
          <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
            {t('fields:earn_percent')}
          </Text>
          <Text fw={700} fz="xl">
            {formatPercent(summary.earn_percent)}
          </Text>
        </Card>
        <Card padding="md" radius="md">
          <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
            {t('referrals.referred_count')}
          </Text>
          <Text fw={700} fz="xl">
            {summary.referred.length}
          </Text>
        </Card>
        <Card padding="md" radius="md">
          <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
            {t('referrals.total')}
          </Text>
          <Text fw={700} fz="xl" data-testid="referral-total">
            {formatMoney(summary.total)}
          </Text>
        </Card>
      </SimpleGrid>
      {earnings.length > 0 ? (
        <Card padding="lg" radius="md">
          <Title order={2} fz="lg" mb="sm">
            {t('referrals.earnings')}
          </Title>
          <BarChart
            h={220}
            data={earnings.map((e) => ({ month: formatMonth(e.month), sum: e.sum }))}
            dataKey="month"
            series={[{ name: 'sum', label: t('referrals.earned'), color: 'indigo.6' }]}
            valueFormatter={(value) => formatMoney(value)}
          />
        </Card>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="xs">
          <Title order={2} fz="lg">
            {t('referrals.earnings')}
          </Title>
          <DataTable
            caption={t('referrals.earnings')}
            columns={earningColumns}
            rows={earnings.slice().reverse()}
            rowKey={(e) => e.month}
            empty={t('referrals.no_earnings')}
            minWidth={320}
          />
        </Stack>
        <Stack gap="xs">
          <Title order={2} fz="lg">
            {t('referrals.referred')}
          </Title>
          <DataTable
            caption={t('referrals.referred')}
            columns={referredColumns}
            rows={summary.referred}
            rowKey={(r) => r._id}
            empty={other ? t('referrals.no_referred_other') : t('referrals.no_referred')}
            minWidth={320}
          />
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

export function ReferralsPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  const referrals = useReferrals(userId);
  const other = useOtherOwnerName(userId);
  return (
    <Stack gap="md">
      <PageHeader
        title={other ? t('referrals.title_of', { name: other }) : t('referrals.title')}
        subtitle={other ? undefined : user.data?.name}
        back={{ to: `/users/${userId}`, label: t('back_to_account') }}
      />
      {referrals.isPending ? <Skeleton height={240} radius="md" /> : null}
      {referrals.isError ? (
        <Alert color="red" title={t('errors:error_title')} role="alert">
          {referrals.error instanceof ApiError && referrals.error.status === 404
            ? t('errors:not_found')
            : t('errors:generic')}
        </Alert>
      ) : null}
      {referrals.data ? <Summary summary={referrals.data} other={other} /> : null}
    </Stack>
  );
}
