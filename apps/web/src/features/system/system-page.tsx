import {
  type MaintenanceState,
  type PlatformSettings,
  platformSettings,
  type SystemBuffer,
  type SystemHealth,
  type SystemJob,
} from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  Badge,
  Button,
  Card,
  Divider,
  Group,
  SimpleGrid,
  Skeleton,
  Stack,
  Switch,
  Table,
  Text,
  Title,
  Tooltip,
} from '@mantine/core';
import { IconCpu, IconDatabase, IconServer2, IconStack2 } from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { FormNumberInput } from '../../components/form-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { TableScroll } from '../../components/table-scroll.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { setFieldErrors } from '../../lib/form-errors.ts';
import { formatDateTime, formatMs, formatNumber, moneyAffix } from '../../lib/format.ts';
import { notifyError, notifySuccess } from '../../lib/notify.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import {
  useMaintenance,
  useSetMaintenance,
  useSettings,
  useSystemHealth,
  useUpdateSettings,
} from './api/system-queries.ts';

function SettingsForm({ settings }: { settings: PlatformSettings }) {
  const { t } = useTranslation('billing');
  const canUpdate = useAppAbility().can('update', 'System');
  const update = useUpdateSettings();
  const form = useForm<z.input<typeof platformSettings>, unknown, PlatformSettings>({
    resolver: zodResolver(platformSettings, { error: validationErrorMap }),
    defaultValues: settings,
  });
  const onSubmit = form.handleSubmit(async (values) => {
    try {
      await update.mutateAsync(values);
      notifySuccess(t('system.saved'));
    } catch (error) {
      setFieldErrors(error, form.setError, ['min_payout', 'low_campaign_balance', 'low_account_balance']);
    }
  });
  /** A money setting: dollars and cents, never negative; read-only for a read-only admin. */
  const moneyField = (name: keyof PlatformSettings) => (
    <FormNumberInput
      control={form.control}
      name={name}
      label={t(`fields:${name}`)}
      {...moneyAffix()}
      decimalScale={2}
      min={0}
      readOnly={!canUpdate}
    />
  );
  return (
    <Card padding="lg" radius="md">
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {t('system.payouts')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('system.min_payout_hint')}
          </Text>
          {moneyField('min_payout')}
          <Divider />
          <Title order={3} fz="md">
            {t('system.low_balance')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('system.low_balance_hint')}
          </Text>
          <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
            {moneyField('low_campaign_balance')}
            {moneyField('low_account_balance')}
          </SimpleGrid>
          {canUpdate ? (
            <Group justify="flex-end">
              <Button type="submit" loading={update.isPending}>
                {t('common:actions.save')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      </form>
    </Card>
  );
}

/** The maintenance switch: on, everyone but admins sees the under-maintenance page (ads keep serving). */
function MaintenanceCard({ state }: { state: MaintenanceState }) {
  const { t } = useTranslation('billing');
  const canUpdate = useAppAbility().can('update', 'System');
  const set = useSetMaintenance();
  const [confirming, setConfirming] = useState(false);
  const apply = async (enabled: boolean) => {
    try {
      await set.mutateAsync(enabled);
      notifySuccess(enabled ? t('system.maintenance_on_done') : t('system.maintenance_off_done'));
    } catch (error) {
      notifyError(error);
    } finally {
      setConfirming(false);
    }
  };
  return (
    <Card padding="lg" radius="md">
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap" align="flex-start">
          <Title order={2} fz="lg">
            {t('system.maintenance')}
          </Title>
          <Badge color={state.enabled ? 'yellow' : 'green'} variant="light">
            {state.enabled ? t('system.maintenance_state_on') : t('system.maintenance_state_off')}
          </Badge>
        </Group>
        <Text c="dimmed" fz="sm">
          {t('system.maintenance_hint')}
        </Text>
        <Switch
          checked={state.enabled}
          disabled={!canUpdate || set.isPending}
          label={t('system.maintenance_switch')}
          onChange={(e) => {
            if (e.currentTarget.checked) setConfirming(true);
            else void apply(false);
          }}
        />
        {state.changed_at ? (
          <Text fz="xs" c="dimmed">
            {t('system.maintenance_changed', { at: formatDateTime(state.changed_at) })}
          </Text>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('system.maintenance_confirm_title')}
        message={t('system.maintenance_confirm_text')}
        confirmLabel={t('system.maintenance_confirm')}
        color="yellow"
        loading={set.isPending}
        onConfirm={() => void apply(true)}
        onClose={() => setConfirming(false)}
      />
    </Card>
  );
}

function StatusBadge({ status }: { status: 'ok' | 'down' | 'not_configured' }) {
  const { t } = useTranslation('billing');
  const color = status === 'ok' ? 'green' : status === 'down' ? 'red' : 'gray';
  return (
    <Badge color={color} variant="light">
      {t(`system.status.${status}`)}
    </Badge>
  );
}

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Group justify="space-between" gap="xs" wrap="nowrap">
      <Text fz="sm" c="dimmed">
        {label}
      </Text>
      <Text fz="sm" ta="right" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Group>
  );
}

function PartCard({
  icon,
  title,
  badge,
  children,
}: {
  icon: ReactNode;
  title: string;
  badge?: ReactNode;
  children: ReactNode;
}) {
  return (
    <Card padding="md" radius="md">
      <Stack gap={6}>
        {/* a long badge ("Not configured") goes under the title in a narrow card, not past its edge */}
        <Group justify="space-between" gap={6}>
          <Group gap="xs" wrap="nowrap">
            {icon}
            <Title order={3} fz="md">
              {title}
            </Title>
          </Group>
          {badge}
        </Group>
        {children}
      </Stack>
    </Card>
  );
}

const ms = (v: number | null) => (v === null ? '—' : formatMs(v));

/** An ISO 8601 date and time, as the server writes an instant into a job's outcome. */
const isoInstant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * A job's result in the interface's language: a result with a code by its sentence (its moment and
 * numbers as the language writes them), a failure as "Failed: <the error's own words>", else the text.
 */
function useResultText() {
  const { t } = useTranslation('billing');
  return (job: SystemJob): string => {
    const text = job.last_result ?? '';
    if (job.failed && text.startsWith('failed: '))
      return t('system.job_results.failed', { message: text.slice(8) });
    if (!job.last_result_code) return text;
    // numbers and instants in the dashboard's language, whatever the value's name
    const values = { ...job.last_result_values };
    for (const [k, v] of Object.entries(values))
      values[k] = typeof v === 'number' ? formatNumber(v) : isoInstant.test(v) ? formatDateTime(v) : v;
    return t(`system.job_results.${job.last_result_code}`, { ...values, defaultValue: text });
  };
}

/** "every 20 min", "every 6 h": a job's period in the largest whole unit. */
function usePeriod() {
  const { t } = useTranslation('billing');
  return (everyMs: number | null) => {
    if (everyMs === null) return '—';
    const minutes = everyMs / 60_000;
    if (minutes >= 60 && minutes % 60 === 0) return t('system.every_hours', { n: minutes / 60 });
    if (minutes >= 1 && Number.isInteger(minutes)) return t('system.every_minutes', { n: minutes });
    return t('system.every_seconds', { n: Math.round(everyMs / 1000) });
  };
}

function Parts({ health }: { health: SystemHealth }) {
  const { t } = useTranslation('billing');
  const { database, redis, ad_index: index, versions } = health;
  return (
    <SimpleGrid cols={{ base: 1, sm: 2, lg: 4 }} spacing="md">
      <PartCard
        icon={<IconDatabase size={20} />}
        title={t('system.database')}
        badge={<StatusBadge status={database.status} />}
      >
        <Fact label={t('system.driver')}>{database.driver === 'pglite' ? 'PGlite' : 'PostgreSQL'}</Fact>
        <Fact label={t('system.ping')}>{ms(database.ping_ms)}</Fact>
        {database.error ? (
          <Text fz="xs" c="red">
            {database.error}
          </Text>
        ) : null}
      </PartCard>
      <PartCard icon={<IconServer2 size={20} />} title="Redis" badge={<StatusBadge status={redis.status} />}>
        {redis.status === 'not_configured' ? (
          <Text fz="sm" c="dimmed">
            {t('system.redis_not_configured')}
          </Text>
        ) : (
          <Fact label={t('system.ping')}>{ms(redis.ping_ms)}</Fact>
        )}
        {redis.error ? (
          <Text fz="xs" c="red">
            {redis.error}
          </Text>
        ) : null}
      </PartCard>
      <PartCard
        icon={<IconStack2 size={20} />}
        title={t('system.ad_index')}
        badge={<StatusBadge status={index.last_error ? 'down' : 'ok'} />}
      >
        <Fact label={t('system.index_campaigns')}>{formatNumber(index.campaigns)}</Fact>
        <Fact label={t('system.index_creatives')}>{formatNumber(index.creatives)}</Fact>
        <Fact label={t('system.index_widgets')}>{formatNumber(index.widgets)}</Fact>
        <Fact label={t('system.last_rebuild')}>{formatDateTime(index.built_at)}</Fact>
        {index.last_error ? (
          <Text fz="xs" c="red">
            {t('system.index_stale', { error: index.last_error })}
          </Text>
        ) : null}
      </PartCard>
      <PartCard icon={<IconCpu size={20} />} title={t('system.versions')}>
        <Fact label={t('system.version_app')}>{versions.app}</Fact>
        <Fact label="Node.js">{versions.node}</Fact>
        <Fact label={t('system.version_db')}>{versions.db}</Fact>
      </PartCard>
    </SimpleGrid>
  );
}

function JobsCard({ jobs }: { jobs: SystemJob[] }) {
  const { t } = useTranslation('billing');
  const resultText = useResultText();
  const period = usePeriod();
  return (
    <Card padding="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('system.jobs')}
        </Title>
        {jobs.length === 0 ? (
          <Text c="dimmed" fz="sm">
            {t('system.no_jobs')}
          </Text>
        ) : (
          <TableScroll minWidth={720} label={t('system.jobs')}>
            <Table verticalSpacing="xs" striped>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('system.job')}</Table.Th>
                  <Table.Th>{t('system.period')}</Table.Th>
                  <Table.Th>{t('system.last_run')}</Table.Th>
                  <Table.Th>{t('system.result')}</Table.Th>
                  <Table.Th>{t('system.next_run')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {jobs.map((job) => (
                  <Table.Tr key={job.name}>
                    <Table.Td>
                      <Text fz="sm" fw={500}>
                        {t(`system.job_names.${job.name}`, { defaultValue: job.name })}
                      </Text>
                      <Text fz="xs" c="dimmed" ff="monospace">
                        {job.name}
                      </Text>
                    </Table.Td>
                    <Table.Td>{period(job.every_ms)}</Table.Td>
                    <Table.Td>
                      {job.last_run_at ? formatDateTime(job.last_run_at) : t('system.never')}
                    </Table.Td>
                    <Table.Td maw={320}>
                      {job.last_result === null ? (
                        '—'
                      ) : (
                        <Tooltip label={resultText(job)} multiline maw={420} withinPortal>
                          <Text fz="sm" c={job.failed ? 'red' : undefined} lineClamp={2}>
                            {resultText(job)}
                          </Text>
                        </Tooltip>
                      )}
                    </Table.Td>
                    <Table.Td>{job.next_run_at ? formatDateTime(job.next_run_at) : '—'}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </TableScroll>
        )}
      </Stack>
    </Card>
  );
}

function BuffersCard({ buffers }: { buffers: SystemBuffer[] }) {
  const { t } = useTranslation('billing');
  return (
    <Card padding="lg" radius="md">
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('system.buffers')}
        </Title>
        <Text c="dimmed" fz="sm">
          {t('system.buffers_hint')}
        </Text>
        <TableScroll minWidth={520} label={t('system.buffers')}>
          <Table verticalSpacing="xs" striped>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('system.buffer')}</Table.Th>
                <Table.Th ta="right">{t('system.queued')}</Table.Th>
                <Table.Th>{t('system.last_flush')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {buffers.map((b) => (
                <Table.Tr key={b.name}>
                  <Table.Td>{t(`system.buffer_names.${b.name}`)}</Table.Td>
                  <Table.Td ta="right">{formatNumber(b.queued)}</Table.Td>
                  <Table.Td>
                    {b.name === 'clicks'
                      ? t('system.clicks_at_once')
                      : b.last_flush_at
                        ? formatDateTime(b.last_flush_at)
                        : '—'}
                    {b.last_error ? (
                      <Text fz="xs" c="red">
                        {b.last_error}
                      </Text>
                    ) : null}
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </TableScroll>
      </Stack>
    </Card>
  );
}

/**
 * The admin's system page: the maintenance switch, the health of the platform's parts (database, Redis,
 * the ad index, versions), the scheduled jobs, the event batches, and the minimum payout.
 */
export function SystemPage() {
  const { t } = useTranslation('billing');
  const settings = useSettings();
  const health = useSystemHealth();
  const maintenance = useMaintenance();
  return (
    <Stack gap="md">
      <PageHeader title={t('system.title')} />
      {health.data ? (
        <Text fz="xs" c="dimmed">
          {t('system.checked_at', { at: formatDateTime(health.data.checked_at) })}
        </Text>
      ) : null}
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="md">
        {maintenance.data ? (
          <MaintenanceCard state={maintenance.data} />
        ) : (
          <Skeleton height={180} radius="md" />
        )}
        {settings.data ? <SettingsForm settings={settings.data} /> : <Skeleton height={180} radius="md" />}
      </SimpleGrid>
      {health.data ? (
        <>
          <Parts health={health.data} />
          <JobsCard jobs={health.data.jobs} />
          <BuffersCard buffers={health.data.buffers} />
        </>
      ) : (
        <Skeleton height={320} radius="md" />
      )}
    </Stack>
  );
}
