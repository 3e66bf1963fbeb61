import type { Withdrawal } from '@adp/contract';
import { Anchor, Button, Group, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { Can } from '../../lib/ability.tsx';
import { formatMoney } from '../../lib/format.ts';
import { useAuth } from '../../lib/use-auth.ts';
import { useSettings, useWithdrawalsQueue } from './api/withdrawals-queries.ts';
import { DecisionDialog } from './components/decision-dialog.tsx';
import { WithdrawalsTable } from './components/withdrawals-table.tsx';

const PER_PAGE = 20;
type Filter = 'pending' | 'paid' | 'rejected' | 'all';

/** Admin queue of payout requests: pending first, approve with a reference or reject with a reason. */
export function WithdrawalsQueuePage() {
  const { t } = useTranslation('billing');
  const auth = useAuth();
  const [filter, setFilter] = useState<Filter>('pending');
  const [page, setPage] = useState(1);
  const [deciding, setDeciding] = useState<{ row: Withdrawal; action: 'approve' | 'reject' } | null>(null);
  const queue = useWithdrawalsQueue(filter === 'all' ? undefined : filter, page, PER_PAGE);
  const settings = useSettings();
  return (
    <Stack gap="md">
      <PageHeader
        title={t('withdrawals.queue_title')}
        subtitle={
          settings.data ? (
            <>
              {t('withdrawals.min_payout_note', { min: formatMoney(settings.data.min_payout) })}{' '}
              <Can I="update" a="System">
                <Anchor component={Link} to="/system" fz="sm" underline="always">
                  {t('withdrawals.change_min_payout')}
                </Anchor>
              </Can>
            </>
          ) : undefined
        }
      />
      <SegmentedControl
        aria-label={t('fields:status')}
        value={filter}
        onChange={(value) => {
          setFilter(value as Filter);
          setPage(1);
        }}
        data={(['pending', 'paid', 'rejected', 'all'] as const).map((value) => ({
          value,
          label: value === 'all' ? t('withdrawals.all') : t(`withdrawals.statuses.${value}`),
        }))}
        style={{ alignSelf: 'flex-start', maxWidth: '100%' }}
      />
      <WithdrawalsTable
        caption={t('withdrawals.queue_title')}
        rows={queue.data?.items ?? []}
        loading={queue.isPending}
        error={queue.error}
        withUser
        page={page}
        total={queue.data?.total}
        limit={PER_PAGE}
        onPage={setPage}
        actions={(row) =>
          row.status === 'pending' && row.user_id === auth.userId ? (
            // an admin's own payout is another admin's decision (the server refuses it too)
            <Text c="dimmed" fz="sm">
              {t('withdrawals.own_request')}
            </Text>
          ) : row.status === 'pending' ? (
            <Can I="update" a="Withdrawal">
              <Group gap={4} wrap="nowrap">
                <Button
                  size="xs"
                  color="teal"
                  onClick={() => setDeciding({ row, action: 'approve' })}
                  aria-label={t('withdrawals.approve_for', { name: row.user_name })}
                >
                  {t('withdrawals.approve')}
                </Button>
                <Button
                  size="xs"
                  variant="light"
                  color="red"
                  onClick={() => setDeciding({ row, action: 'reject' })}
                  aria-label={t('withdrawals.reject_for', { name: row.user_name })}
                >
                  {t('withdrawals.reject')}
                </Button>
              </Group>
            </Can>
          ) : (
            <Text c="dimmed" fz="sm">
              —
            </Text>
          )
        }
      />
      <DecisionDialog
        key={deciding ? `${deciding.row._id}-${deciding.action}` : 'none'}
        withdrawal={deciding?.row ?? null}
        action={deciding?.action ?? 'approve'}
        onClose={() => setDeciding(null)}
      />
    </Stack>
  );
}
