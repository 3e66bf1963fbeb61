import { type SocialGroup, socialGroupInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Group, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { IconShieldCheck } from '@tabler/icons-react';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import {
  FormNumberInput,
  FormPasswordInput,
  FormSelect,
  FormSwitch,
  FormTextInput,
} from '../../../components/form-fields.tsx';
import { ApiError } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { notifyError, notifyErrorMessage, notifySuccess } from '../../../lib/notify.ts';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { useCheckRights } from '../api/social-queries.ts';

type Values = z.input<typeof socialGroupInput>;
export type SocialGroupSubmit = z.output<typeof socialGroupInput>;

function RightsCheck({ group, dirty }: { group: SocialGroup; dirty: boolean }) {
  const { t } = useTranslation('social');
  const check = useCheckRights(group._id);
  // the last check of this visit failed: the card keeps saying so after the toast is gone
  const [refused, setRefused] = useState(false);
  const run = async () => {
    try {
      await check.mutateAsync();
      setRefused(false);
      notifySuccess(t('rights.ok'));
    } catch (error) {
      if (error instanceof ApiError && error.fieldErrors.some((e) => e.code === 'facebook_no_rights')) {
        setRefused(true);
        notifyErrorMessage(t('errors:facebook_no_rights'));
      } else notifyError(error);
    }
  };
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('rights.title')}>
      <Stack gap="sm">
        <Title order={2} fz="lg">
          {t('rights.title')}
        </Title>
        <Text fz="sm" c={group.rights_checked_at ? 'teal' : 'dimmed'} data-testid="rights-state">
          {group.rights_checked_at
            ? t('rights.checked_at', { date: formatDateTime(group.rights_checked_at) })
            : t('rights.not_checked')}
        </Text>
        {refused && !group.rights_checked_at ? (
          <Alert color="red" variant="light" role="alert" data-testid="rights-refused">
            {t('errors:facebook_no_rights')}
          </Alert>
        ) : null}
        {dirty ? (
          <Text fz="xs" c="dimmed">
            {t('rights.save_first')}
          </Text>
        ) : null}
        <Group>
          <Button
            variant="light"
            leftSection={<IconShieldCheck size={16} aria-hidden />}
            onClick={run}
            loading={check.isPending}
            disabled={dirty}
          >
            {t('rights.check')}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/**
 * Every social group field. The access token is write-only (the API only says whether one is set), and
 * autopublish stays off until a publishing-rights check of the Facebook page succeeds.
 */
export function SocialGroupForm({
  group,
  siteOptions,
  siteId,
  onSubmit,
  submitLabel,
}: {
  group?: SocialGroup;
  siteOptions: { value: string; label: string }[];
  siteId?: string;
  onSubmit: (input: SocialGroupSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('social');
  const form = useForm<Values, unknown, SocialGroupSubmit>({
    resolver: zodResolver(socialGroupInput, { error: validationErrorMap }),
    defaultValues: {
      title: group?.title ?? '',
      site_id: group?.site_id ?? siteId ?? '',
      facebook_page_id: group?.facebook_page_id ?? '',
      access_token: '',
      autopublish: group?.autopublish ?? false,
      valid_days: group?.valid_days ?? 3,
      use_description: group?.use_description ?? true,
      category_blacklist: group?.category_blacklist ?? '',
      date_order: group?.date_order ?? 'desc',
    },
  });
  const { control } = form;
  const rightsChecked = Boolean(group?.rights_checked_at);
  const pageChanged =
    form.watch('facebook_page_id') !== (group?.facebook_page_id ?? '') || Boolean(form.watch('access_token'));
  const submit = form.handleSubmit(async (values) => {
    try {
      const locked = !(rightsChecked && !pageChanged);
      await onSubmit({ ...values, autopublish: locked ? false : values.autopublish });
      form.reset({ ...values, access_token: '' });
    } catch (error) {
      applyServerErrors(error, form.setError, Object.keys(socialGroupInput.shape));
    }
  });
  return (
    <Stack gap="md">
      <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTextInput control={control} name="title" required />
            <FormSelect
              control={control}
              name="site_id"
              data={siteOptions}
              searchable
              required
              disabled={Boolean(group)}
              allowDeselect={false}
            />
            <FormTextInput control={control} name="facebook_page_id" required inputMode="numeric" />
            <FormPasswordInput
              control={control}
              name="access_token"
              autoComplete="off"
              description={group?.has_token ? t('form.token_set') : t('form.token_not_set')}
              placeholder={group?.has_token ? '••••••••' : undefined}
            />
            <FormNumberInput
              control={control}
              name="valid_days"
              min={1}
              max={365}
              description={t('form.valid_days_hint')}
            />
            <FormSelect
              control={control}
              name="date_order"
              data={['desc', 'asc'].map((value) => ({ value, label: t(`date_order.${value}`) }))}
              allowDeselect={false}
            />
            <FormTextInput
              control={control}
              name="category_blacklist"
              placeholder="politics,crime"
              description={t('form.blacklist_hint')}
            />
            <FormSwitch control={control} name="use_description" mt="lg" />
          </SimpleGrid>
          {rightsChecked && !pageChanged ? (
            <FormSwitch control={control} name="autopublish" description={t('form.autopublish_hint')} />
          ) : (
            <Switch
              label={t('fields:autopublish')}
              aria-label={t('fields:autopublish')}
              checked={false}
              disabled
              description={t('form.autopublish_locked')}
              name="autopublish"
            />
          )}
          {group && !rightsChecked ? (
            <Alert color="yellow" variant="light">
              {t('errors:facebook_no_rights_check')}
            </Alert>
          ) : null}
          <Group justify="flex-end">
            <Button type="submit" loading={form.formState.isSubmitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </Card>
      {group ? <RightsCheck group={group} dirty={form.formState.isDirty} /> : null}
    </Stack>
  );
}
