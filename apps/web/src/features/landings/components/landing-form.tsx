import { type Landing, landingFieldTypes, landingInput } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import {
  ActionIcon,
  Button,
  Card,
  Checkbox,
  Group,
  Select,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { Controller, useFieldArray, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { FormSelect, FormTextarea, FormTextInput } from '../../../components/form-fields.tsx';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { translateFieldError, validationErrorMap } from '../../../lib/validation.ts';

export const landingFormSchema = landingInput.omit({ user_id: true });
export type LandingFormValues = z.input<typeof landingFormSchema>;
export type LandingFormOutput = z.output<typeof landingFormSchema>;

/** Title, status, texts and the form builder of a landing (fields: name, label, type, required). */
export function LandingForm({
  landing,
  onSubmit,
  submitLabel,
  readOnly = false,
}: {
  landing?: Landing;
  onSubmit: (values: LandingFormOutput) => Promise<unknown>;
  submitLabel: string;
  /** Readonly roles see the landing but get no write controls. */
  readOnly?: boolean;
}) {
  const { t } = useTranslation('landings');
  const form = useForm<LandingFormValues, unknown, LandingFormOutput>({
    resolver: zodResolver(landingFormSchema, { error: validationErrorMap }),
    defaultValues: landing
      ? {
          title: landing.title,
          status: landing.status,
          headline: landing.headline,
          description: landing.description,
          form: landing.form,
        }
      : {
          title: '',
          status: 'active',
          headline: '',
          description: '',
          form: { fields: [], submit_label: '' },
        },
  });
  const { control } = form;
  const fields = useFieldArray({ control, name: 'form.fields' });
  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, ['title', 'status', 'headline', 'description', 'form']);
    }
  });
  const err = (name: string, message?: string) => translateFieldError(message, name, t);

  return (
    <form onSubmit={submit} noValidate>
      <fieldset disabled={readOnly} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
        <Stack gap="md">
          <Card padding="lg" radius="md" component="section" aria-label={t('form.page')}>
            <Stack gap="md">
              <Title order={2} fz="lg">
                {t('form.page')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <FormTextInput control={control} name="title" required />
                <FormSelect
                  control={control}
                  name="status"
                  data={['active', 'inactive'].map((value) => ({ value, label: t(`status.${value}`) }))}
                  allowDeselect={false}
                />
              </SimpleGrid>
              <FormTextInput control={control} name="headline" />
              <FormTextarea control={control} name="description" autosize minRows={3} />
            </Stack>
          </Card>

          <Card padding="lg" radius="md" component="section" aria-label={t('form.builder')}>
            <Stack gap="md">
              <div>
                <Title order={2} fz="lg">
                  {t('form.builder')}
                </Title>
                <Text c="dimmed" fz="sm">
                  {t('form.builder_hint')}
                </Text>
              </div>
              {fields.fields.length === 0 ? (
                <Text c="dimmed" fz="sm">
                  {t('form.no_fields')}
                </Text>
              ) : null}
              {fields.fields.map((item, index) => (
                <Card
                  key={item.id}
                  withBorder
                  padding="sm"
                  radius="md"
                  role="group"
                  aria-label={t('form.field_n', { n: index + 1 })}
                >
                  <Stack gap="xs">
                    <SimpleGrid cols={{ base: 1, sm: 3 }}>
                      <Controller
                        control={control}
                        name={`form.fields.${index}.label`}
                        render={({ field, fieldState }) => (
                          <TextInput
                            {...field}
                            label={t('form.field_label')}
                            required
                            error={err('label', fieldState.error?.message)}
                          />
                        )}
                      />
                      <Controller
                        control={control}
                        name={`form.fields.${index}.name`}
                        render={({ field, fieldState }) => (
                          <TextInput
                            {...field}
                            label={t('form.field_name')}
                            description={t('form.field_name_hint')}
                            inputWrapperOrder={['label', 'input', 'description', 'error']}
                            required
                            error={err('name', fieldState.error?.message)}
                          />
                        )}
                      />
                      <Controller
                        control={control}
                        name={`form.fields.${index}.type`}
                        render={({ field }) => (
                          <Select
                            label={t('form.field_type')}
                            data={landingFieldTypes.map((value) => ({
                              value,
                              label: t(`field_types.${value}`),
                            }))}
                            value={field.value ?? 'text'}
                            onChange={(v) => field.onChange(v ?? 'text')}
                            allowDeselect={false}
                          />
                        )}
                      />
                    </SimpleGrid>
                    <Group justify="space-between">
                      <Controller
                        control={control}
                        name={`form.fields.${index}.required`}
                        render={({ field }) => (
                          <Checkbox
                            label={t('form.field_required')}
                            checked={Boolean(field.value)}
                            onChange={(e) => field.onChange(e.currentTarget.checked)}
                          />
                        )}
                      />
                      <Group gap={4}>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('form.move_up')}
                          disabled={index === 0}
                          onClick={() => fields.move(index, index - 1)}
                        >
                          <IconArrowUp size={16} aria-hidden />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          aria-label={t('form.move_down')}
                          disabled={index === fields.fields.length - 1}
                          onClick={() => fields.move(index, index + 1)}
                        >
                          <IconArrowDown size={16} aria-hidden />
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          aria-label={t('form.remove_field')}
                          onClick={() => fields.remove(index)}
                        >
                          <IconTrash size={16} aria-hidden />
                        </ActionIcon>
                      </Group>
                    </Group>
                  </Stack>
                </Card>
              ))}
              <Button
                variant="light"
                leftSection={<IconPlus size={16} aria-hidden />}
                style={{ alignSelf: 'flex-start' }}
                disabled={fields.fields.length >= 20}
                onClick={() =>
                  fields.append({
                    name: `field_${fields.fields.length + 1}`,
                    label: '',
                    type: 'text',
                    required: false,
                  })
                }
              >
                {t('form.add_field')}
              </Button>
              <FormTextInput
                control={control}
                name="form.submit_label"
                label={t('fields:submit_label')}
                maw={360}
              />
            </Stack>
          </Card>
          {readOnly ? null : (
            <Group justify="flex-end">
              <Button type="submit" loading={form.formState.isSubmitting}>
                {submitLabel}
              </Button>
            </Group>
          )}
        </Stack>
      </fieldset>
    </form>
  );
}
