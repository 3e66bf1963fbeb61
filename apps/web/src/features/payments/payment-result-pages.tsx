import { Button, Card, Group, Stack, Text, ThemeIcon, Title } from '@mantine/core';
import { IconCircleCheck, IconCircleX } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useAuth } from '../../lib/ability.tsx';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { useHidesOwnBalance } from '../../lib/me-query.ts';
import { useAccount, useTopup } from './api/payments-queries.ts';

function ResultRow({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group justify="space-between" gap="md" wrap="nowrap">
      <Text c="dimmed" fz="sm">
        {label}
      </Text>
      <Text fw={600} ta="right">
        {value}
      </Text>
    </Group>
  );
}

/** The top-up named by ?topup= and the account's balance now, with the way back to the account. */
function PaymentResult({ outcome }: { outcome: 'success' | 'failed' }) {
  const { t } = useTranslation('billing');
  const [params] = useSearchParams();
  const auth = useAuth();
  const loggedIn = Boolean(auth.accessToken);
  const topup = useTopup(params.get('topup'), loggedIn);
  const ownerId = topup.data?.user_id ?? auth.userId;
  const account = useAccount(loggedIn ? ownerId : null);
  const hideBalance = useHidesOwnBalance(ownerId);
  const success = outcome === 'success';
  const color = success ? 'teal' : 'red';
  return (
    <Stack align="center" gap="md" maw={520} mx="auto" py="xl" ta="center">
      <ThemeIcon size={96} radius={96} variant="light" color={color} aria-hidden>
        {success ? <IconCircleCheck size={56} /> : <IconCircleX size={56} />}
      </ThemeIcon>
      <Title order={1} fz={{ base: 24, sm: 32 }}>
        {t(success ? 'common:misc.payment_success_title' : 'common:misc.payment_failed_title')}
      </Title>
      <Text c="dimmed">
        {t(success ? 'common:misc.payment_success_text' : 'common:misc.payment_failed_text')}
      </Text>
      {topup.data || account.data ? (
        <Card padding="lg" radius="md" w="100%" ta="left">
          <Stack gap="xs">
            {topup.data ? (
              <>
                <ResultRow label={t('result.amount')} value={formatMoney(topup.data.sum, 'USD')} />
                <ResultRow label={t('result.status')} value={t(`result.statuses.${topup.data.status}`)} />
                <ResultRow
                  label={t('result.date')}
                  value={formatDateTime(topup.data.completed_at ?? topup.data.date)}
                />
                <ResultRow label={t('result.reference')} value={`#${topup.data._id}`} />
              </>
            ) : null}
            {account.data && !hideBalance ? (
              <ResultRow
                label={t('result.balance')}
                value={<span data-testid="result-balance">{formatMoney(account.data.balance, 'USD')}</span>}
              />
            ) : null}
          </Stack>
        </Card>
      ) : null}
      <Group justify="center" gap="xs">
        {loggedIn && ownerId ? (
          <Button component={Link} to={`/users/${ownerId}`}>
            {t('back_to_account')}
          </Button>
        ) : (
          <Button component={Link} to="/">
            {t('common:back_home')}
          </Button>
        )}
        {!success && loggedIn && ownerId ? (
          <Button component={Link} to={`/users/${ownerId}/topup`} variant="light">
            {t('result.try_again')}
          </Button>
        ) : null}
      </Group>
    </Stack>
  );
}

export function PaymentSuccessPage() {
  return <PaymentResult outcome="success" />;
}

export function PaymentFailedPage() {
  return <PaymentResult outcome="failed" />;
}
