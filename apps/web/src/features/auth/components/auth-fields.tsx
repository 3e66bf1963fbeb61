import '@mantine/core/styles/Input.layer.css';
import '@mantine/core/styles/ActionIcon.layer.css';
import '@mantine/core/styles/PasswordInput.layer.css';
import { PasswordInput, type PasswordInputProps, TextInput, type TextInputProps } from '@mantine/core';
import { type FormEvent, type ReactNode, useCallback, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { issueMessage, translateFieldError } from '../../../lib/validation.ts';

/**
 * The login and password pages keep their forms light (no react-hook-form, no zod on first load):
 * values in state, errors stored as encoded validation keys like every other form, translated at
 * render time. `check` may be async, e.g. to load the contract's schema when the form is submitted.
 */
export type FormErrors<F> = Partial<Record<keyof F & string, string>>;
type Check<F> = (values: F) => FormErrors<F> | Promise<FormErrors<F>>;

export interface AuthForm<F extends Record<string, string | boolean>> {
  values: F;
  errors: FormErrors<F>;
  setValue: <K extends keyof F & string>(name: K, value: F[K]) => void;
  setError: (name: keyof F & string, message: string) => void;
  onSubmit: (submit: (values: F) => Promise<void> | void) => (event: FormEvent) => void;
}

export function useAuthForm<F extends Record<string, string | boolean>>(
  initial: F,
  check: Check<F>,
): AuthForm<F> {
  const [values, setValues] = useState(initial);
  const [errors, setErrors] = useState<FormErrors<F>>({});
  const submitted = useRef(false);
  const latest = useRef(values);

  const revalidate = useCallback(
    async (next: F) => {
      const found = await check(next);
      // an older answer of an async check must not overwrite a newer one
      if (latest.current === next) setErrors(found);
      return found;
    },
    [check],
  );

  const setValue = <K extends keyof F & string>(name: K, value: F[K]) => {
    const next = { ...latest.current, [name]: value };
    latest.current = next;
    setValues(next);
    // as react-hook-form does: after the first submit, errors follow every change
    if (submitted.current) void revalidate(next);
  };

  const onSubmit = (submit: (values: F) => Promise<void> | void) => (event: FormEvent) => {
    event.preventDefault();
    submitted.current = true;
    const current = latest.current;
    void revalidate(current).then((found) => {
      if (Object.keys(found).length === 0) return submit(current);
    });
  };

  const setError = (name: keyof F & string, message: string) =>
    setErrors((previous) => ({ ...previous, [name]: message }));

  return { values, errors, setValue, setError, onSubmit };
}

/** A plain e-mail shape check; the server applies the contract's rule again. */
const emailShape = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export function checkEmail(value: string): string | undefined {
  const trimmed = value.trim();
  if (!trimmed) return issueMessage('required');
  if (trimmed.length > 254 || !emailShape.test(trimmed)) return issueMessage('email');
  return undefined;
}

export function checkRequired(value: string): string | undefined {
  return value ? undefined : issueMessage('required');
}

/** Drops the fields without an error. */
export function compact<F>(errors: Record<keyof F & string, string | undefined>): FormErrors<F> {
  return Object.fromEntries(Object.entries(errors).filter(([, message]) => message)) as FormErrors<F>;
}

export interface FieldProps<F extends Record<string, string | boolean>> {
  form: AuthForm<F>;
  name: keyof F & string;
  /** Defaults to `fields:<name>`, which also names the field in validation messages. */
  label?: ReactNode;
}

export function AuthTextInput<F extends Record<string, string | boolean>>({
  form,
  name,
  label,
  ...props
}: FieldProps<F> & Omit<TextInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { t } = useTranslation();
  return (
    <TextInput
      {...props}
      name={name}
      value={String(form.values[name] ?? '')}
      onChange={(event) => form.setValue(name, event.currentTarget.value as F[typeof name])}
      label={label ?? t(`fields:${name}`)}
      error={translateFieldError(form.errors[name], name, t)}
    />
  );
}

export function AuthPasswordInput<F extends Record<string, string | boolean>>({
  form,
  name,
  label,
  ...props
}: FieldProps<F> & Omit<PasswordInputProps, 'name' | 'label' | 'value' | 'onChange' | 'error' | 'form'>) {
  const { t } = useTranslation();
  return (
    <PasswordInput
      {...props}
      name={name}
      value={String(form.values[name] ?? '')}
      onChange={(event) => form.setValue(name, event.currentTarget.value as F[typeof name])}
      label={label ?? t(`fields:${name}`)}
      error={translateFieldError(form.errors[name], name, t)}
      visibilityToggleButtonProps={{ 'aria-label': t('common:toggle_password') }}
    />
  );
}
