import type { Targeting } from '@adp/contract';
import { Badge, Group, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { dimensionOrder } from './targeting-editor.tsx';

/** One line per targeted dimension: "only these" or "all but these" and what is listed. */
export function TargetingSummary({ targeting }: { targeting: Targeting }) {
  const { t } = useTranslation('banners');
  const lines = dimensionOrder.filter((name) => targeting[name].state !== 'inactive');
  const named: Partial<Record<string, string>> = {
    devices: 'device',
    os: 'os_names',
    browsers: 'browser',
    widget_types: 'widget_type',
  };
  const show = (name: string, v: unknown) => {
    const group = named[name];
    return group ? t(`targeting.${group}.${String(v)}`) : showRaw(v);
  };
  const showRaw = (v: unknown) =>
    typeof v === 'object' && v ? `${(v as { from: string }).from}–${(v as { to: string }).to}` : String(v);
  return (
    <Stack gap="xs">
      {targeting.start_date || targeting.end_date ? (
        <Text fz="sm">
          {t('targeting.start_date')}: {targeting.start_date ?? '—'} · {t('targeting.end_date')}:{' '}
          {targeting.end_date ?? '—'}
        </Text>
      ) : null}
      {lines.map((name) => (
        <Group key={name} gap="xs" wrap="wrap">
          <Text fz="sm" fw={600}>
            {t(`targeting.dimensions.${name}`)}
          </Text>
          <Badge size="sm" variant="light" color={targeting[name].state === 'active' ? 'teal' : 'orange'}>
            {t(`targeting.states.${targeting[name].state}`)}
          </Badge>
          <Text fz="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {(targeting[name].values as unknown[])
              .slice(0, 20)
              .map((v) => show(name, v))
              .join(', ') || '—'}
            {targeting[name].values.length > 20 ? ` … (+${targeting[name].values.length - 20})` : ''}
          </Text>
        </Group>
      ))}
      {targeting.capping.state === 'active' ? (
        <Text fz="sm">
          {t('targeting.capping_summary', {
            impressions: targeting.capping.impressions ?? '∞',
            clicks: targeting.capping.clicks ?? '∞',
            hours: targeting.capping.period_hours,
          })}
        </Text>
      ) : null}
      {lines.length === 0 &&
      targeting.capping.state !== 'active' &&
      !targeting.start_date &&
      !targeting.end_date ? (
        <Text fz="sm" c="dimmed">
          {t('targeting.none')}
        </Text>
      ) : null}
    </Stack>
  );
}
