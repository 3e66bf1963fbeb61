import '@mantine/core/styles/Checkbox.layer.css';
import { Checkbox, type CheckboxProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { translateFieldError } from '../../../lib/validation.ts';
import type { FieldProps } from './auth-fields.tsx';

export function AuthCheckbox<F extends Record<string, string | boolean>>({
  form,
  name,
  label,
  ...props
}: FieldProps<F> & Omit<CheckboxProps, 'name' | 'label' | 'checked' | 'onChange' | 'error' | 'form'>) {
  const { t } = useTranslation();
  return (
    <Checkbox
      {...props}
      name={name}
      checked={Boolean(form.values[name])}
      onChange={(event) => form.setValue(name, event.currentTarget.checked as F[typeof name])}
      label={label ?? t(`fields:${name}`)}
      error={translateFieldError(form.errors[name], name, t)}
    />
  );
}
