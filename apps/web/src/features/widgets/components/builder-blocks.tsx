import { builderBlockType } from '@adp/contract';
import { ActionIcon, Button, Card, Group, NumberInput, Select, Stack, Text } from '@mantine/core';
import { IconArrowDown, IconArrowUp, IconPlus, IconTrash } from '@tabler/icons-react';
import { type Control, Controller, useFieldArray } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { WidgetFormValues } from './widget-form-schema.ts';

const formats = Array.from({ length: 9 }, (_, format) => format);
const MAX_BLOCKS = 20;

/** The builder's layout: blocks of a type (native, amp, infinity, 3_2_1) in a format 0–8, in order. */
export function BuilderBlocks({ control }: { control: Control<WidgetFormValues> }) {
  const { t } = useTranslation('widgets');
  const { fields, append, remove, move } = useFieldArray({ control, name: 'blocks' });
  const typeOptions = builderBlockType.options.map((value) => ({ value, label: t(`block_types.${value}`) }));
  const formatOptions = formats.map((format) => ({
    value: String(format),
    label: t('builder.format_option', { format, name: t(`formats.${format}`) }),
  }));
  return (
    <Stack gap="sm" role="group" aria-label={t('builder.title')}>
      {fields.length === 0 ? (
        <Text c="dimmed" fz="sm">
          {t('builder.empty')}
        </Text>
      ) : null}
      {fields.map((field, index) => (
        <Card
          key={field.id}
          withBorder
          padding="sm"
          radius="md"
          aria-label={t('builder.block', { n: index + 1 })}
          component="fieldset"
          style={{ margin: 0 }}
        >
          <Group align="flex-end" gap="sm" wrap="wrap">
            <Text fw={600} fz="sm" w={24} aria-hidden>
              {index + 1}.
            </Text>
            <Controller
              control={control}
              name={`blocks.${index}.type`}
              render={({ field: f }) => (
                <Select
                  label={t('builder.type', { n: index + 1 })}
                  data={typeOptions}
                  value={f.value}
                  onChange={(value) => value && f.onChange(value)}
                  allowDeselect={false}
                  w={160}
                />
              )}
            />
            <Controller
              control={control}
              name={`blocks.${index}.format`}
              render={({ field: f }) => (
                <Select
                  label={t('builder.format', { n: index + 1 })}
                  data={formatOptions}
                  value={String(f.value)}
                  onChange={(value) => value !== null && f.onChange(Number(value))}
                  allowDeselect={false}
                  w={220}
                />
              )}
            />
            <Controller
              control={control}
              name={`blocks.${index}.items`}
              render={({ field: f }) => (
                <NumberInput
                  label={t('builder.items', { n: index + 1 })}
                  value={f.value ?? ''}
                  onChange={(value) => f.onChange(typeof value === 'number' ? value : undefined)}
                  min={1}
                  max={30}
                  w={110}
                />
              )}
            />
            <Group gap={4} ml="auto">
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => move(index, index - 1)}
                disabled={index === 0}
                aria-label={t('builder.move_up', { n: index + 1 })}
              >
                <IconArrowUp size={16} aria-hidden />
              </ActionIcon>
              <ActionIcon
                variant="default"
                size="lg"
                onClick={() => move(index, index + 1)}
                disabled={index === fields.length - 1}
                aria-label={t('builder.move_down', { n: index + 1 })}
              >
                <IconArrowDown size={16} aria-hidden />
              </ActionIcon>
              <ActionIcon
                variant="light"
                color="red"
                size="lg"
                onClick={() => remove(index)}
                aria-label={t('builder.remove', { n: index + 1 })}
              >
                <IconTrash size={16} aria-hidden />
              </ActionIcon>
            </Group>
          </Group>
        </Card>
      ))}
      <Group>
        <Button
          variant="light"
          leftSection={<IconPlus size={16} aria-hidden />}
          onClick={() => append({ type: 'native', format: 0, items: 4 })}
          disabled={fields.length >= MAX_BLOCKS}
        >
          {t('builder.add')}
        </Button>
      </Group>
    </Stack>
  );
}
