import { type PlatformSettings, platformSettings } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormNumberInput } from '../../components/form-fields.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { setFieldErrors } from '../../lib/form-errors.ts';
import { notifySuccess } from '../../lib/notify.ts';
import { validationErrorMap } from '../../lib/validation.ts';
import { useSettings, useUpdateSettings } from './api/system-queries.ts';

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
      setFieldErrors(error, form.setError, ['min_payout']);
    }
  });
  return (
    <Card padding="lg" radius="md" maw={560}>
      <form onSubmit={onSubmit} noValidate>
        <Stack gap="sm">
          <Title order={2} fz="lg">
            {t('system.payouts')}
          </Title>
          <Text c="dimmed" fz="sm">
            {t('system.min_payout_hint')}
          </Text>
          <FormNumberInput
            control={form.control}
            name="min_payout"
            label={t('fields:min_payout')}
            prefix="$ "
            decimalScale={2}
            min={0}
            readOnly={!canUpdate}
          />
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

/** Platform settings an admin edits; for now the minimum payout of withdrawals. */
export function SystemPage() {
  const { t } = useTranslation('billing');
  const settings = useSettings();
  return (
    <Stack gap="md">
      <PageHeader title={t('system.title')} />
      {settings.isPending ? <Skeleton height={180} radius="md" maw={560} /> : null}
      {settings.data ? <SettingsForm settings={settings.data} /> : null}
    </Stack>
  );
}
