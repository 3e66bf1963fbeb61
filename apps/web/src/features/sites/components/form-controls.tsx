import { TagsInput, type TagsInputProps } from '@mantine/core';
import type { ReactNode } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from '../../../lib/validation.ts';

/** A list of words typed one by one (Enter or comma adds one). */
export function FormTagsInput<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: { control: Control<T>; name: FieldPath<T>; label?: ReactNode } & Omit<
  TagsInputProps,
  'name' | 'label' | 'value' | 'onChange' | 'error'
>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const error = translateFieldError(fieldState.error?.message, name, t);
  return (
    <TagsInput
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
      splitChars={[',', 'Enter']}
      clearable
    />
  );
}
