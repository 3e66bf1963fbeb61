import { type Partner, partnerInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, SimpleGrid, Stack } from '@mantine/core';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { FormNumberInput, FormSelect, FormSwitch, FormTextInput } from '../../../components/form-fields.tsx';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';

/** Editing keeps the owner: `user_id` is asked (and required) on create only. */
const formInput = partnerInput.extend({ user_id: z.string().optional() });
type Values = z.input<typeof formInput>;
export type PartnerSubmit = z.output<typeof formInput>;

/** Create and edit form of an agency group: title, owner (create only), rates and display switches. */
export function PartnerForm({
  partner,
  onSubmit,
  submitLabel,
}: {
  partner?: Partner;
  onSubmit: (input: PartnerSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('partners');
  const schema = partner ? formInput : partnerInput;
  const form = useForm<Values, unknown, PartnerSubmit>({
    resolver: zodResolver(schema as typeof formInput, { error: validationErrorMap }),
    defaultValues: {
      title: partner?.title ?? '',
      ...(partner ? {} : { user_id: '' }),
      agency_rate: partner?.agency_rate ?? 0,
      phoenix_rate: partner?.phoenix_rate ?? 0,
      campaign_rate: partner?.campaign_rate ?? 0,
      showlogo: partner?.showlogo ?? true,
      showamount: partner?.showamount ?? true,
      status: partner?.status ?? 'active',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, Object.keys(partnerInput.shape));
    }
  });
  const rate = { min: 0, max: 100, decimalScale: 2, suffix: ' %' };
  return (
    <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate maw={860}>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormTextInput control={form.control} name="title" required />
          {partner ? null : (
            <FormTextInput
              control={form.control}
              name="user_id"
              label={t('form.owner')}
              description={t('form.owner_help')}
              required
              inputMode="numeric"
            />
          )}
          <FormNumberInput
            control={form.control}
            name="agency_rate"
            {...rate}
            description={t('form.agency_rate_help')}
          />
          <FormNumberInput
            control={form.control}
            name="phoenix_rate"
            {...rate}
            description={t('form.phoenix_rate_help')}
          />
          <FormNumberInput
            control={form.control}
            name="campaign_rate"
            {...rate}
            description={t('form.campaign_rate_help')}
          />
          <FormSelect
            control={form.control}
            name="status"
            data={(['active', 'inactive'] as const).map((value) => ({ value, label: t(`status.${value}`) }))}
            allowDeselect={false}
            description={t('form.status_help')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
        </SimpleGrid>
        <FormSwitch control={form.control} name="showlogo" description={t('form.showlogo_help')} />
        <FormSwitch control={form.control} name="showamount" description={t('form.showamount_help')} />
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
