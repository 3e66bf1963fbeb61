import { MultiSelect, type MultiSelectProps, TagsInput, type TagsInputProps, Textarea } from '@mantine/core';
import { type ReactNode, useState } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from '../../../lib/validation.ts';

interface Props<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  label?: ReactNode;
}

/** The first error under an array field (`track_urls.1`) belongs to the whole field. */
function arrayError(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  if ('message' in error && typeof error.message === 'string') return error.message;
  for (const value of Object.values(error)) {
    const found = arrayError(value);
    if (found) return found;
  }
  return undefined;
}

/** A list of values typed one by one (Enter, comma or space adds one), e.g. ids or domains. */
export function FormTags<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: Props<T> & Omit<TagsInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <TagsInput
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={translateFieldError(arrayError(fieldState.error), name, t)}
      splitChars={[',', ' ', 'Enter']}
      clearable
    />
  );
}

export function FormMultiSelect<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: Props<T> & Omit<MultiSelectProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <MultiSelect
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string[] | undefined) ?? []}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={translateFieldError(arrayError(fieldState.error), name, t)}
    />
  );
}

/** One value per line; empty lines are dropped. */
export function FormLines<T extends FieldValues>({
  control,
  name,
  label,
  description,
  placeholder,
}: Props<T> & { description?: ReactNode; placeholder?: string }) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  const [text, setText] = useState(((field.value as string[] | undefined) ?? []).join('\n'));
  return (
    <Textarea
      name={field.name}
      ref={field.ref}
      value={text}
      onChange={(event) => {
        setText(event.currentTarget.value);
        field.onChange(
          event.currentTarget.value
            .split('\n')
            .map((line) => line.trim())
            .filter(Boolean),
        );
      }}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      description={description}
      placeholder={placeholder}
      error={translateFieldError(arrayError(fieldState.error), name, t)}
      autosize
      minRows={2}
    />
  );
}
