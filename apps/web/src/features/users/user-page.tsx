import type { Account } from '@adp/contract';
import { subject } from '@casl/ability';
import {
  Alert,
  Anchor,
  Avatar,
  Badge,
  Button,
  Card,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import {
  IconArrowsExchange,
  IconBuildingSkyscraper,
  IconCash,
  IconChartLine,
  IconCoin,
  IconEdit,
  IconGift,
  IconKey,
  IconMail,
  IconPhone,
  IconReceipt,
  IconShieldCog,
  IconSpeakerphone,
  IconTarget,
  IconWallet,
  IconWorld,
} from '@tabler/icons-react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useOtherOwnerName } from '../../components/owner.tsx';
import { RevenueTermsHistory } from '../../components/revenue-terms-history.tsx';
import { Can, useAppAbility, useAuth } from '../../lib/ability.tsx';
import { formatMoney, formatNumber } from '../../lib/format.ts';
import { useHidesOwnBalance, useMemberAgency } from '../../lib/me-query.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { useUser, useUserPayments } from './api/users-queries.ts';
import { ChangePasswordDialog } from './components/change-password-dialog.tsx';
import { ChangeRoleDialog } from './components/change-role-dialog.tsx';
import { LedgerTable } from './components/ledger-table.tsx';
import { PayUserDialog } from './components/pay-user-dialog.tsx';

function Stat({
  label,
  value,
  icon,
  extra,
}: {
  label: string;
  value: ReactNode;
  icon: ReactNode;
  extra?: ReactNode;
}) {
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
          {extra}
        </div>
      </Group>
    </Card>
  );
}

/** The balance in the user's display currency; USD (the platform currency) while its rate is unknown. */
function Balance({ user }: { user: Account }) {
  const { t } = useTranslation('users');
  const agency = useMemberAgency();
  const converted = user.currency !== 'USD' && user.display_balance != null;
  // an agency that keeps its members' money out of their screens (showamount off): the member's own balance
  if (useHidesOwnBalance(user._id))
    return (
      <Stat
        label={t('fields:balance')}
        icon={<IconWallet aria-hidden />}
        value={<span data-testid="account-balance">—</span>}
        extra={
          agency ? (
            <Text c="dimmed" fz="xs">
              {t('profile.balance_by_agency', { title: agency.title })}
            </Text>
          ) : null
        }
      />
    );
  return (
    <Stat
      label={t('fields:balance')}
      icon={<IconWallet aria-hidden />}
      value={
        <span data-testid="account-balance">
          {converted
            ? formatMoney(user.display_balance ?? 0, user.currency)
            : formatMoney(user.balance, 'USD')}
        </span>
      }
      extra={
        converted ? (
          <Text c="dimmed" fz="xs">
            {t('profile.platform_balance', { amount: formatMoney(user.balance, 'USD') })}
          </Text>
        ) : null
      }
    />
  );
}

function AccountActions({ user }: { user: Account }) {
  const { t } = useTranslation('users');
  const ability = useAppAbility();
  const auth = useAuth();
  const own = auth.userId === user._id;
  const [payOpened, pay] = useDisclosure(false);
  const [passwordOpened, password] = useDisclosure(false);
  const [roleOpened, role] = useDisclosure(false);
  const asUser = subject('User', { ...user });
  const owned = { user_id: user._id };
  const canUpdate = ability.can('update', asUser);
  const isAdmin = ability.can('update', 'AccountAdmin');
  return (
    <>
      <Group gap="xs">
        {canUpdate ? (
          <>
            <Button
              component={Link}
              to={`/users/${user._id}/edit`}
              variant="light"
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('actions.edit')}
            </Button>
            <Button variant="light" onClick={password.open} leftSection={<IconKey size={16} aria-hidden />}>
              {t('actions.change_password')}
            </Button>
          </>
        ) : null}
        {/* one's own role is another admin's to change (the server says own_role_change) */}
        {!own && isAdmin ? (
          <Button
            variant="light"
            color="grape"
            onClick={role.open}
            leftSection={<IconShieldCog size={16} aria-hidden />}
          >
            {t('actions.change_role')}
          </Button>
        ) : null}
        {/* an admin's own balance is another admin's to change (the server says own_payment) */}
        {!own && ability.can('create', subject('Payment', { ...owned })) ? (
          <Button color="teal" onClick={pay.open} leftSection={<IconCash size={16} aria-hidden />}>
            {t('actions.pay')}
          </Button>
        ) : null}
        {own && ability.can('create', subject('TopUp', { ...owned })) ? (
          <Button
            component={Link}
            to={`/users/${user._id}/topup`}
            leftSection={<IconCoin size={16} aria-hidden />}
          >
            {t('actions.top_up')}
          </Button>
        ) : null}
        {own && ability.can('create', subject('Withdrawal', { ...owned })) ? (
          <Button
            component={Link}
            to={`/users/${user._id}/withdrawals`}
            variant="light"
            leftSection={<IconArrowsExchange size={16} aria-hidden />}
          >
            {t('actions.withdraw')}
          </Button>
        ) : null}
      </Group>
      <PayUserDialog userId={user._id} userName={user.name} opened={payOpened} onClose={pay.close} />
      <ChangePasswordDialog
        userId={user._id}
        needsCurrent={own || !isAdmin}
        opened={passwordOpened}
        onClose={password.close}
      />
      <ChangeRoleDialog
        key={user.role}
        userId={user._id}
        userName={user.name}
        current={user.role}
        opened={roleOpened}
        onClose={role.close}
      />
    </>
  );
}

function AccountLinks({ user }: { user: Account }) {
  const { t } = useTranslation('users');
  const ability = useAppAbility();
  const owned = { user_id: user._id };
  const links = [
    {
      to: 'stats',
      label: t('stats:open'),
      icon: IconChartLine,
      show: ability.can('read', subject('Stats', { ...owned })),
    },
    {
      to: 'payments',
      label: t('links.payments'),
      icon: IconReceipt,
      show: ability.can('read', subject('Payment', { ...owned })),
    },
    {
      to: 'transaction',
      label: t('links.transactions'),
      icon: IconArrowsExchange,
      show: ability.can('read', subject('Transaction', { ...owned })),
    },
    {
      to: 'withdrawals',
      label: t('links.withdrawals'),
      icon: IconCash,
      show: ability.can('read', subject('Withdrawal', { ...owned })),
    },
    {
      to: 'referrals',
      label: t('links.referrals'),
      icon: IconGift,
      show: ability.can('read', subject('Referral', { ...owned })),
    },
    {
      to: 'agencies',
      label: t('links.agencies'),
      icon: IconBuildingSkyscraper,
      show: (user.role === 'agency' || user.owns.agencies > 0) && ability.can('read', 'Agency'),
    },
  ].filter((link) => link.show);
  return (
    <Group gap="xs">
      {links.map(({ to, label, icon: Icon }) => (
        <Button
          key={to}
          component={Link}
          to={`/users/${user._id}/${to}`}
          variant="subtle"
          leftSection={<Icon size={16} aria-hidden />}
        >
          {label}
        </Button>
      ))}
    </Group>
  );
}

function RecentPayments({ user }: { user: Account }) {
  const { t } = useTranslation('users');
  const payments = useUserPayments(user._id, 1, 5);
  // an admin (or agency) on another user's account reads "Recent payments of Anna"
  const title =
    useAuth().userId === user._id
      ? t('profile.recent_payments')
      : t('profile.recent_payments_of', { name: user.name });
  return (
    <Stack gap="xs">
      <Group justify="space-between">
        <Title order={2} fz="lg">
          {title}
        </Title>
        <Anchor component={Link} to={`/users/${user._id}/payments`} fz="sm">
          {t('profile.all_payments')}
        </Anchor>
      </Group>
      <LedgerTable
        caption={title}
        entries={payments.data?.items ?? []}
        loading={payments.isPending}
        error={payments.error}
        withBalance={false}
      />
    </Stack>
  );
}

function AccountSummary({ user }: { user: Account }) {
  const { t } = useTranslation('users');
  const initials = user.name
    .split(/\s+/)
    .map((part) => part[0] ?? '')
    .join('')
    .slice(0, 2)
    .toUpperCase();
  return (
    <Stack gap="md">
      <Card padding="lg" radius="md">
        <Stack gap="md">
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
                <Text c="dimmed" fz="sm">
                  ID {user._id}
                </Text>
              </Group>
            </div>
          </Group>
          <AccountActions user={user} />
        </Stack>
      </Card>
      <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
        <Balance user={user} />
        <Stat label={t('fields:email')} value={user.email} icon={<IconMail aria-hidden />} />
        <Stat
          label={t('fields:phone')}
          value={user.phone || t('profile.not_set')}
          icon={<IconPhone aria-hidden />}
        />
        {user.owns.sites !== undefined ? (
          <Stat
            label={t('profile.sites')}
            value={formatNumber(user.owns.sites)}
            icon={<IconWorld aria-hidden />}
          />
        ) : null}
        {user.owns.campaigns !== undefined ? (
          <Stat
            label={t('profile.campaigns')}
            value={formatNumber(user.owns.campaigns)}
            icon={<IconSpeakerphone aria-hidden />}
          />
        ) : null}
        <Stat
          label={t('profile.pixels')}
          value={formatNumber(user.owns.pixels)}
          icon={<IconTarget aria-hidden />}
        />
        {/* a member belongs to an agency and owns none: a count of 0 read as "no agency" */}
        {user.role !== 'agencymember' || user.owns.agencies > 0 ? (
          <Stat
            label={t('profile.agencies')}
            value={formatNumber(user.owns.agencies)}
            icon={<IconBuildingSkyscraper aria-hidden />}
          />
        ) : null}
        <Stat label={t('fields:currency')} value={user.currency} icon={<IconCoin aria-hidden />} />
      </SimpleGrid>
      {user.notes ? (
        <Can I="read" a="AccountAdmin">
          <Card padding="md" radius="md">
            <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
              {t('fields:notes')}
            </Text>
            <Text style={{ whiteSpace: 'pre-wrap' }}>{user.notes}</Text>
          </Card>
        </Can>
      ) : null}
      <AccountLinks user={user} />
      <RecentPayments user={user} />
      <RevenueTermsHistory entity="user" entityId={user._id} />
    </Stack>
  );
}

export function UserPage() {
  const { t } = useTranslation('users');
  const { userId = '' } = useParams();
  const user = useUser(userId);
  // another user's account is named ("Anna Petrova · Account"); one's own keeps the route's "My account"
  const otherName = useOtherOwnerName(userId);
  usePageTitle(otherName ? t('document_title', { name: otherName }) : undefined);
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
