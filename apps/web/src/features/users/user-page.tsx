import type { Account } from '@adp/contract';
import { Alert, Avatar, Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import { IconMail, IconPhone, IconWallet } from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useUser } from './api/users-queries.ts';

function formatMoney(amount: number, currency: string, locale: string): string {
  try {
    return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(amount);
  } catch {
    return `${amount} ${currency}`;
  }
}

function Stat({ label, value, icon }: { label: string; value: ReactNode; icon: ReactNode }) {
  return (
    <Card padding="md" radius="md">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        {icon}
        <div style={{ minWidth: 0 }}>
          <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
            {label}
          </Text>
          <Text fw={600} style={{ overflowWrap: 'anywhere' }}>
            {value}
          </Text>
        </div>
      </Group>
    </Card>
  );
}

function AccountSummary({ user }: { user: Account }) {
  const { t, i18n } = useTranslation('users');
  const initials = user.name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <Stack gap="md">
      <Card padding="lg" radius="md">
        <Group gap="md" wrap="nowrap">
          <Avatar size="lg" radius="xl" color="indigo" aria-hidden>
            {initials}
          </Avatar>
          <div style={{ minWidth: 0 }}>
            <Title order={1} fz={{ base: 20, sm: 26 }} style={{ overflowWrap: 'anywhere' }}>
              {user.name}
            </Title>
            <Group gap="xs" mt={4}>
              <Text c="dimmed" fz="sm">
                {t('fields:role')}:
              </Text>
              <Badge variant="light">{t(`roles.${user.role}`)}</Badge>
            </Group>
          </div>
        </Group>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Stat
          label={t('fields:balance')}
          value={formatMoney(user.balance, user.currency, i18n.language)}
          icon={<IconWallet aria-hidden />}
        />
        <Stat label={t('fields:email')} value={user.email} icon={<IconMail aria-hidden />} />
        <Stat
          label={t('fields:phone')}
          value={user.phone || t('profile.not_set')}
          icon={<IconPhone aria-hidden />}
        />
      </SimpleGrid>
    </Stack>
  );
}

export function UserPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  if (user.isPending) {
    return (
      <Stack gap="md" aria-busy="true" aria-label={t('profile.loading')}>
        <Skeleton height={96} radius="md" />
        <Skeleton height={80} radius="md" />
      </Stack>
    );
  }
  if (user.isError) {
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  }
  return <AccountSummary user={user.data} />;
}
