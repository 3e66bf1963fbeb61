import type { Widget } from '@adp/contract';
import {
  criteoType,
  earnProcessor,
  fixedPosition,
  processors,
  sliderDirection,
  widgetTypes,
} from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Accordion, Button, ColorInput, Grid, Group, SimpleGrid, Stack } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import { type Control, type FieldPath, useController, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormNumberInput, FormSelect, FormSwitch, FormTextInput } from '../../../components/form-fields.tsx';
import { useAppAbility } from '../../../lib/ability.tsx';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { translateFieldError, validationErrorMap } from '../../../lib/validation.ts';
import { useWidgetSite } from '../api/widgets-queries.ts';
import { BuilderBlocks } from './builder-blocks.tsx';
import {
  settingsOf,
  toWidgetInput,
  type WidgetFormOutput,
  type WidgetFormValues,
  widgetFormDefaults,
  widgetFormKeys,
  widgetFormSchema,
} from './widget-form-schema.ts';
import { WidgetPreview } from './widget-preview.tsx';

export type WidgetSubmit = ReturnType<typeof toWidgetInput>;

function FormColorInput({
  control,
  name,
}: {
  control: Control<WidgetFormValues>;
  name: FieldPath<WidgetFormValues>;
}) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <ColorInput
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={t(`fields:${name}`)}
      error={translateFieldError(fieldState.error?.message, name, t)}
      format="hex"
      eyeDropperButtonProps={{ 'aria-label': t('widgets:form.eye_dropper') }}
    />
  );
}

/**
 * Every Widget field of SPEC.md, grouped, beside a live preview of the unsaved settings rendered with
 * the embed script.
 */
export function WidgetForm({
  widget,
  siteId,
  onSubmit,
  submitLabel,
}: {
  widget?: Widget;
  siteId: string;
  onSubmit: (input: WidgetSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('widgets');
  // the earn processor and value are revenue terms: admins set them, others see them disabled
  const termsLocked = !useAppAbility().can('update', 'RevenueTerms');
  const form = useForm<WidgetFormValues, unknown, WidgetFormOutput>({
    resolver: zodResolver(widgetFormSchema, { error: validationErrorMap }),
    defaultValues: widgetFormDefaults(widget),
  });
  const { control } = form;
  const values = useWatch({ control }) as Partial<WidgetFormValues>;
  const type = values.type;
  const earn = values.earn_processor;
  const sitePays = useWidgetSite(siteId).data?.payment_method;
  const [open, setOpen] = useState<string[]>(['layout', 'style', ...(type === 'builder' ? ['builder'] : [])]);
  // choosing the builder type opens its block editor
  useEffect(() => {
    if (type === 'builder')
      setOpen((current) => (current.includes('builder') ? current : [...current, 'builder']));
  }, [type]);
  const options = useMemo(
    () => ({
      types: widgetTypes.map((value) => ({ value, label: t(`types.${value}`) })),
      processors: processors.map((value) => ({ value, label: t(`processors.${value}`) })),
      directions: sliderDirection.options.map((value) => ({ value, label: t(`directions.${value}`) })),
      positions: fixedPosition.options.map((value) => ({ value, label: t(`positions.${value}`) })),
      earn: earnProcessor.options.map((value) => ({ value, label: t(`earn_processors.${value}`) })),
      criteo: criteoType.options.map((value) => ({ value, label: t(`criteo_types.${value}`) })),
      statuses: ['active', 'inactive'].map((value) => ({ value, label: t(`status.${value}`) })),
    }),
    [t],
  );

  const submit = form.handleSubmit(async (output) => {
    try {
      await onSubmit(toWidgetInput(output));
    } catch (error) {
      applyServerErrors(error, form.setError, widgetFormKeys);
    }
  });

  const sections = [
    {
      value: 'layout',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormSelect control={control} name="type" data={options.types} allowDeselect={false} />
          <FormNumberInput
            control={control}
            name="width"
            min={0}
            max={4000}
            suffix=" px"
            description={t('form.width_hint')}
          />
          <FormNumberInput control={control} name="columns" min={1} max={8} />
          <FormNumberInput control={control} name="column_width" min={80} max={1000} suffix=" px" />
          <FormNumberInput control={control} name="rows" min={1} max={20} />
          <FormNumberInput
            control={control}
            name="height"
            min={0}
            max={4000}
            suffix=" px"
            description={t('form.height_hint')}
          />
          <FormSelect
            control={control}
            name="position"
            data={options.positions}
            allowDeselect={false}
            description={t('form.position_hint')}
          />
          <FormSwitch control={control} name="autosize" mt="lg" />
        </SimpleGrid>
      ),
    },
    {
      value: 'style',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormTextInput control={control} name="font" placeholder="inherit, Georgia, serif" />
          <FormNumberInput control={control} name="font_size" min={8} max={48} suffix=" px" />
          <FormColorInput control={control} name="title_color" />
          <FormColorInput control={control} name="text_color" />
          <FormColorInput control={control} name="background_color" />
          <FormColorInput control={control} name="hover_color" />
          <FormNumberInput
            control={control}
            name="text_max_length"
            min={1}
            max={500}
            description={t('form.text_max_length_hint')}
          />
          <FormTextInput control={control} name="truncation_suffix" maxLength={10} />
          <FormSwitch control={control} name="hide_logo" />
        </SimpleGrid>
      ),
    },
    {
      value: 'slider',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormSwitch control={control} name="is_slider" />
          <FormSwitch control={control} name="rewind" />
          <FormNumberInput
            control={control}
            name="slider_timer"
            min={0}
            max={600}
            suffix={` ${t('form.seconds')}`}
            description={t('form.slider_timer_hint')}
          />
          <FormNumberInput
            control={control}
            name="slider_max_times"
            min={0}
            max={1000}
            description={t('form.zero_unlimited')}
          />
          <FormSelect control={control} name="direction" data={options.directions} allowDeselect={false} />
          <FormNumberInput control={control} name="slides_per_move" min={1} max={10} />
        </SimpleGrid>
      ),
    },
    {
      value: 'behaviour',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormSelect
            control={control}
            name="processor"
            data={options.processors}
            allowDeselect={false}
            searchable
          />
          <FormSelect control={control} name="status" data={options.statuses} allowDeselect={false} />
          <FormNumberInput
            control={control}
            name="load_limit"
            min={0}
            max={100}
            description={t('form.zero_unlimited')}
          />
          <FormSwitch control={control} name="open_in_new_tab" mt="lg" />
        </SimpleGrid>
      ),
    },
    {
      value: 'monetisation',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormSelect
            control={control}
            name="earn_processor"
            data={options.earn}
            allowDeselect={false}
            disabled={termsLocked}
            description={termsLocked ? t('common:revenue_terms.admin_only') : undefined}
          />
          <FormNumberInput
            control={control}
            name="earn_value"
            min={0}
            max={earn === 'percent' ? 100 : undefined}
            decimalScale={6}
            suffix={earn === 'percent' ? ' %' : undefined}
            description={
              // the site's payment method decides what the value pays: per click, per thousand, or nothing
              sitePays === 'cpm' || sitePays === 'fixed'
                ? t(`form.earn_value_hint_site_${sitePays}`)
                : t(`form.earn_value_hint_${earn ?? 'percent'}`)
            }
            disabled={termsLocked}
          />
        </SimpleGrid>
      ),
    },
    {
      value: 'interstitial',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormNumberInput
            control={control}
            name="interstitial_time"
            min={0}
            max={120000}
            step={500}
            suffix=" ms"
            description={t('form.interstitial_hint')}
          />
          <FormNumberInput control={control} name="interstitial_pages" min={0} max={100} />
        </SimpleGrid>
      ),
    },
    {
      value: 'criteo',
      content: (
        <SimpleGrid cols={{ base: 1, sm: 2 }}>
          <FormSelect
            control={control}
            name="criteo_type"
            data={options.criteo}
            clearable
            placeholder={t('form.none')}
            description={t('form.criteo_type_hint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
          />
        </SimpleGrid>
      ),
    },
    {
      value: 'marketplace',
      content: (
        <FormTextInput
          control={control}
          name="marketplace_url"
          placeholder="https://"
          description={t('form.marketplace_url_hint')}
          inputWrapperOrder={['label', 'input', 'description', 'error']}
        />
      ),
    },
    {
      value: 'builder',
      content: <BuilderBlocks control={control} />,
    },
  ];

  return (
    <form onSubmit={submit} noValidate>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 7 }}>
          <Stack gap="md">
            <FormTextInput control={control} name="title" required />
            <Accordion multiple variant="separated" value={open} onChange={setOpen}>
              {sections.map((section) => (
                <Accordion.Item key={section.value} value={section.value}>
                  <Accordion.Control>{t(`sections.${section.value}`)}</Accordion.Control>
                  <Accordion.Panel>{section.content}</Accordion.Panel>
                </Accordion.Item>
              ))}
            </Accordion>
            <Group justify="flex-end">
              <Button type="submit" loading={form.formState.isSubmitting}>
                {submitLabel}
              </Button>
            </Group>
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 5 }}>
          <div style={{ position: 'sticky', top: 80 }}>
            <WidgetPreview settings={settingsOf(values)} siteId={siteId} title={values.title} />
          </div>
        </Grid.Col>
      </Grid>
    </form>
  );
}
