import '../lib/calendar.ts';
import { DateInput, DatesProvider } from '@mantine/dates';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat';
import type { ReactNode } from 'react';
import { type Control, type FieldPath, type FieldValues, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { currentLocale } from '../lib/i18n.ts';
import { translateFieldError } from '../lib/validation.ts';

dayjs.extend(customParseFormat);

/** What a person may type: the ISO day, the numeric days of our languages, and the field's own display. */
const TYPED = ['YYYY-MM-DD', 'D.M.YYYY', 'DD.MM.YYYY', 'D/M/YYYY', 'DD/MM/YYYY', 'D MMM YYYY', 'D MMMM YYYY'];

/** A typed day as `YYYY-MM-DD`, or null while it is not one (yet). */
export function parseTypedDay(text: string, locale: string = currentLocale()): string | null {
  const day = dayjs(text.trim(), TYPED, locale, true);
  return day.isValid() ? day.format('YYYY-MM-DD') : null;
}

/**
 * A calendar day (`YYYY-MM-DD` or null), picked in a calendar in the interface's language or typed
 * ("2026-11-05", "5.11.2026", "5 Nov 2026"), and shown as the language writes dates ("5. Nov. 2026",
 * "5 нояб. 2026"); a native date field follows the browser's language instead.
 * @example <DateField label={t('start')} value={start} onChange={setStart} />
 */
export function DateField({
  label,
  description,
  value,
  onChange,
  onBlur,
  error,
  name,
}: {
  label: ReactNode;
  description?: ReactNode;
  value: string | null;
  onChange: (value: string | null) => void;
  onBlur?: () => void;
  error?: ReactNode;
  name?: string;
}) {
  const { t } = useTranslation('common');
  return (
    <DatesProvider settings={{ locale: currentLocale(), firstDayOfWeek: 1 }}>
      <DateInput
        name={name}
        label={label}
        description={description}
        value={value || null}
        onChange={(next) => onChange(typeof next === 'string' && next ? next.slice(0, 10) : null)}
        onBlur={onBlur}
        error={error}
        clearable
        valueFormat="D MMM YYYY"
        dateParser={(text) => parseTypedDay(text)}
        placeholder={t('date.not_set')}
        clearButtonProps={{ 'aria-label': t('date.clear') }}
      />
    </DatesProvider>
  );
}

/** DateField bound to a react-hook-form field holding `YYYY-MM-DD` or '' (empty: not set). */
export function FormDateField<T extends FieldValues>({
  control,
  name,
  label,
  description,
}: {
  control: Control<T>;
  name: FieldPath<T>;
  label: ReactNode;
  description?: ReactNode;
}) {
  const { t } = useTranslation();
  const { field, fieldState } = useController({ control, name });
  return (
    <DateField
      name={field.name}
      label={label}
      description={description}
      value={(field.value as string | null | undefined) || null}
      onChange={(next) => field.onChange(next ?? '')}
      onBlur={field.onBlur}
      error={translateFieldError(fieldState.error?.message, name, t)}
    />
  );
}
