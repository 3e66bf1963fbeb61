import {
  Checkbox,
  type CheckboxProps,
  NumberInput,
  type NumberInputProps,
  PasswordInput,
  type PasswordInputProps,
  Select,
  type SelectProps,
  Switch,
  type SwitchProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { ReactNode } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from '../lib/validation.ts';

interface FieldProps<T extends FieldValues> {
  control: Control<T>;
  name: FieldPath<T>;
  /** Defaults to `fields:<name>`; the same label names the field in validation messages. */
  label?: ReactNode;
}

function useField<T extends FieldValues>(control: Control<T>, name: FieldPath<T>) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return { field, error: translateFieldError(fieldState.error?.message, name, t), t };
}

type InputProps = Omit<TextInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>;

export function FormTextInput<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & InputProps) {
  const { field, error, t } = useField(control, name);
  return (
    <TextInput
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
    />
  );
}

export function FormPasswordInput<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & Omit<PasswordInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>) {
  const { field, error, t } = useField(control, name);
  return (
    <PasswordInput
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
      visibilityToggleButtonProps={{ 'aria-label': t('common:toggle_password') }}
    />
  );
}

export function FormCheckbox<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & Omit<CheckboxProps, 'name' | 'label' | 'checked' | 'onChange' | 'error'>) {
  const { field, error, t } = useField(control, name);
  return (
    <Checkbox
      {...props}
      name={field.name}
      ref={field.ref}
      checked={Boolean(field.value)}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
    />
  );
}

export function FormTextarea<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & Omit<TextareaProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>) {
  const { field, error, t } = useField(control, name);
  return (
    <Textarea
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? ''}
      onChange={field.onChange}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
    />
  );
}

/**
 * A number field. An emptied field holds `null`: where the schema takes null (a limit: none) that is the
 * value; elsewhere the schema reports the field as empty ("can't be empty"). `undefined` would let a
 * schema's default fill it in silently (an emptied earnings value saved as the default's 50 a click).
 */
export function FormNumberInput<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & Omit<NumberInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>) {
  const { field, error, t } = useField(control, name);
  return (
    <NumberInput
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as number | null | undefined) ?? ''}
      // a half-typed value ("-", "1.") stays text: the schema reports it instead of losing it
      onChange={(value) => field.onChange(value === '' ? null : value)}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
    />
  );
}

export function FormSelect<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & Omit<SelectProps, 'name' | 'label' | 'value' | 'onChange' | 'error'>) {
  const { field, error, t } = useField(control, name);
  return (
    <Select
      {...props}
      name={field.name}
      ref={field.ref}
      value={(field.value as string | undefined) ?? null}
      onChange={(value) => field.onChange(value ?? undefined)}
      onBlur={field.onBlur}
      label={label ?? t(`fields:${name}`)}
      error={error}
    />
  );
}

export function FormSwitch<T extends FieldValues>({
  control,
  name,
  label,
  ...props
}: FieldProps<T> & Omit<SwitchProps, 'name' | 'label' | 'checked' | 'onChange' | 'error'>) {
  const { field, error, t } = useField(control, name);
  const text = label ?? t(`fields:${name}`);
  return (
    <Switch
      {...props}
      name={field.name}
      ref={field.ref}
      checked={Boolean(field.value)}
      onChange={(event) => field.onChange(event.currentTarget.checked)}
      onBlur={field.onBlur}
      label={text}
      // Mantine's switch is one <label> around its label and description, so a screen reader would read
      // both run together as the name; the label names it, the description describes it (aria-describedby)
      aria-label={props['aria-label'] ?? (typeof text === 'string' ? text : undefined)}
      error={error}
    />
  );
}
