import { adPositions, type DspPartner, dspPartnerInput, openRtbVersions } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, Select, SimpleGrid, Stack, TagsInput } from '@mantine/core';
import { type Control, type FieldPath, useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormNumberInput, FormSelect, FormTextInput } from '../../../components/form-fields.tsx';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { translateFieldError, validationErrorMap } from '../../../lib/validation.ts';

type Values = z.input<typeof dspPartnerInput>;
export type DspPartnerSubmit = z.output<typeof dspPartnerInput>;

/** A list of sources (domains or site ids) typed one by one. */
function SourcesInput({ control, name }: { control: Control<Values>; name: FieldPath<Values> }) {
  const { t } = useTranslation('dsppartners');
  const { field, fieldState } = useController({ control, name });
  return (
    <TagsInput
      name={field.name}
      ref={field.ref}
      label={t(`fields:${name}`)}
      description={t(`form.${name}_help`)}
      placeholder={t('form.sources_placeholder')}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      onBlur={field.onBlur}
      error={translateFieldError(fieldState.error?.message, name, t)}
      splitChars={[',', ' ', '\n']}
      clearable
    />
  );
}

/** The OpenRTB ad position, kept as its number. */
function PositionSelect({ control }: { control: Control<Values> }) {
  const { t } = useTranslation('dsppartners');
  const { field, fieldState } = useController({ control, name: 'ad_position' });
  return (
    <Select
      name={field.name}
      ref={field.ref}
      label={t('fields:ad_position')}
      data={adPositions.map((p) => ({ value: String(p), label: t(`positions.${p}`) }))}
      value={field.value === undefined ? null : String(field.value)}
      onChange={(v) => field.onChange(v === null ? undefined : Number(v))}
      onBlur={field.onBlur}
      allowDeselect={false}
      error={translateFieldError(fieldState.error?.message, 'ad_position', t)}
    />
  );
}

/** Create and edit form of a DSP partner (SPEC.md section 5). */
export function DspPartnerForm({
  partner,
  onSubmit,
  submitLabel,
}: {
  partner?: DspPartner;
  onSubmit: (input: DspPartnerSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('dsppartners');
  const form = useForm<Values, unknown, DspPartnerSubmit>({
    resolver: zodResolver(dspPartnerInput, { error: validationErrorMap }),
    defaultValues: {
      name: partner?.name ?? '',
      endpoint: partner?.endpoint ?? '',
      openrtb_version: partner?.openrtb_version ?? '2.6',
      daily_money_limit: partner?.daily_money_limit ?? undefined,
      daily_budget_limit: partner?.daily_budget_limit ?? undefined,
      max_request_time: partner?.max_request_time ?? 300,
      whitelist: partner?.whitelist ?? [],
      blacklist: partner?.blacklist ?? [],
      ad_position: partner?.ad_position ?? 0,
      status: partner?.status ?? 'active',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, Object.keys(dspPartnerInput.shape));
    }
  });
  return (
    <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormTextInput control={form.control} name="name" required />
          <FormTextInput control={form.control} name="endpoint" required placeholder="https://" />
          <FormSelect
            control={form.control}
            name="openrtb_version"
            data={openRtbVersions.map((v) => ({ value: v, label: `OpenRTB ${v}` }))}
            allowDeselect={false}
          />
          <FormNumberInput
            control={form.control}
            name="max_request_time"
            min={10}
            max={5000}
            step={10}
            allowDecimal={false}
            description={t('form.max_request_time_help')}
          />
          <FormNumberInput
            control={form.control}
            name="daily_money_limit"
            min={0}
            decimalScale={6}
            description={t('form.daily_money_limit_help')}
          />
          <FormNumberInput
            control={form.control}
            name="daily_budget_limit"
            label={t('form.daily_budget_limit')}
            min={1}
            allowDecimal={false}
            description={t('form.daily_budget_limit_help')}
          />
          <PositionSelect control={form.control} />
          <FormSelect
            control={form.control}
            name="status"
            data={['active', 'inactive'].map((value) => ({ value, label: t(`status.${value}`) }))}
            allowDeselect={false}
          />
        </SimpleGrid>
        <SourcesInput control={form.control} name="whitelist" />
        <SourcesInput control={form.control} name="blacklist" />
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
