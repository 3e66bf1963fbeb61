import '../../../lib/calendar.ts';
import { type Promotion, type PromotionPage, promotionInput, promotionPageInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, SimpleGrid, Stack } from '@mantine/core';
import { DatesProvider, DateTimePicker } from '@mantine/dates';
import dayjs from 'dayjs';
import { type Control, type FieldPath, type FieldValues, useController, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormSelect, FormTextarea, FormTextInput } from '../../../components/form-fields.tsx';
import { currentLocale } from '../../../lib/i18n.ts';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { translateFieldError, validationErrorMap } from '../../../lib/validation.ts';

/** A date and time picker that keeps an ISO timestamp (or null) in the form. */
function FormDateTime<T extends FieldValues>({ control, name }: { control: Control<T>; name: FieldPath<T> }) {
  const { t } = useTranslation('promotions');
  const { field, fieldState } = useController({ control, name });
  const value = field.value ? dayjs(field.value as string).format('YYYY-MM-DD HH:mm:ss') : null;
  return (
    <DateTimePicker
      name={field.name}
      label={t(`fields:${name}`)}
      value={value}
      onChange={(next) => field.onChange(next ? dayjs(next).toISOString() : null)}
      onBlur={field.onBlur}
      error={translateFieldError(fieldState.error?.message, name, t)}
      clearable
      valueFormat="DD MMM YYYY HH:mm"
      placeholder={t('form.pick_date')}
      clearButtonProps={{ 'aria-label': t('form.clear_date') }}
    />
  );
}

const statuses = (t: (key: string) => string) =>
  ['active', 'inactive'].map((value) => ({ value, label: t(`status.${value}`) }));

const promotionFields = promotionInput.omit({ site_id: true });
type PromotionValues = z.input<typeof promotionFields>;
export type PromotionSubmit = z.output<typeof promotionFields>;

export function PromotionForm({
  promotion,
  onSubmit,
  submitLabel,
}: {
  promotion?: Promotion;
  onSubmit: (input: PromotionSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('promotions');
  const form = useForm<PromotionValues, unknown, PromotionSubmit>({
    resolver: zodResolver(promotionFields, { error: validationErrorMap }),
    defaultValues: {
      title: promotion?.title ?? '',
      description: promotion?.description ?? '',
      url: promotion?.url ?? '',
      status: promotion?.status ?? 'active',
      starts_at: promotion?.starts_at ?? null,
      ends_at: promotion?.ends_at ?? null,
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, Object.keys(promotionFields.shape));
    }
  });
  return (
    <DatesProvider settings={{ locale: currentLocale(), firstDayOfWeek: 1 }}>
      <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate>
        <Stack gap="md">
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTextInput control={form.control} name="title" required />
            <FormTextInput control={form.control} name="url" required placeholder="https://" />
            <FormDateTime control={form.control} name="starts_at" />
            <FormDateTime control={form.control} name="ends_at" />
            <FormSelect control={form.control} name="status" data={statuses(t)} allowDeselect={false} />
          </SimpleGrid>
          <FormTextarea control={form.control} name="description" autosize minRows={3} maxLength={2000} />
          <Group justify="flex-end">
            <Button type="submit" loading={form.formState.isSubmitting}>
              {submitLabel}
            </Button>
          </Group>
        </Stack>
      </Card>
    </DatesProvider>
  );
}

const pageFields = promotionPageInput.omit({ promotion_id: true });
type PageValues = z.input<typeof pageFields>;
export type PromotionPageSubmit = z.output<typeof pageFields>;

export function PromotionPageForm({
  page,
  onSubmit,
  submitLabel,
}: {
  page?: PromotionPage;
  onSubmit: (input: PromotionPageSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('promotions');
  const form = useForm<PageValues, unknown, PromotionPageSubmit>({
    resolver: zodResolver(pageFields, { error: validationErrorMap }),
    defaultValues: {
      title: page?.title ?? '',
      text: page?.text ?? '',
      url: page?.url ?? '',
      status: page?.status ?? 'active',
    },
  });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, Object.keys(pageFields.shape));
    }
  });
  const title = form.watch('title') ?? '';
  const text = form.watch('text') ?? '';
  return (
    <Card padding="lg" radius="md" component="form" onSubmit={submit} noValidate>
      <Stack gap="md">
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormTextInput
            control={form.control}
            name="title"
            required
            description={t('form.chars_left', { count: 60 - title.length })}
          />
          <FormTextInput
            control={form.control}
            name="text"
            description={t('form.chars_left', { count: 60 - text.length })}
          />
          <FormTextInput control={form.control} name="url" required placeholder="https://" />
          <FormSelect control={form.control} name="status" data={statuses(t)} allowDeselect={false} />
        </SimpleGrid>
        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}
