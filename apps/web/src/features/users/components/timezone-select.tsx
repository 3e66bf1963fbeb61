import { Select, type SelectProps } from '@mantine/core';
import { useMemo } from 'react';
import { type Control, type FieldValues, type Path, useController } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { browserTimeZone } from '../../../components/stats-panel.tsx';
import { translateFieldError } from '../../../lib/validation.ts';

/** The Select's value of "no setting" (the form holds null): Mantine options need a non-empty value. */
const BROWSER = '~browser';

/**
 * Today's IANA names of zones some browsers still list by their old name (CLDR keeps the first one):
 * people look for Kolkata and Kyiv. Intl accepts both names, so the setting keeps the current one.
 */
const renamed: Record<string, string> = {
  'Asia/Calcutta': 'Asia/Kolkata',
  'Europe/Kiev': 'Europe/Kyiv',
  'Asia/Katmandu': 'Asia/Kathmandu',
  'Asia/Saigon': 'Asia/Ho_Chi_Minh',
  'Asia/Rangoon': 'Asia/Yangon',
  'America/Godthab': 'America/Nuuk',
  'Atlantic/Faeroe': 'Atlantic/Faroe',
  'Pacific/Truk': 'Pacific/Chuuk',
  'Pacific/Ponape': 'Pacific/Pohnpei',
  'Pacific/Enderbury': 'Pacific/Kanton',
};

/** Every IANA timezone the browser knows (Intl), UTC first, and `keep` when it is not among them. */
export function timeZoneOptions(keep?: string | null): string[] {
  const known = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  const current = known.map((z) => renamed[z] ?? z).sort();
  const zones = ['UTC', ...current.filter((z) => z !== 'UTC')];
  if (keep && !zones.includes(keep)) zones.push(keep);
  return zones;
}

/**
 * The user's timezone setting (`timezone`: an IANA name, or null for the browser's): a searchable list of
 * the browser's timezones with "Browser's timezone (…)" first.
 */
export function TimezoneSelect<T extends FieldValues>({
  control,
  name,
  ...props
}: { control: Control<T>; name: Path<T> } & Omit<
  SelectProps,
  'name' | 'value' | 'onChange' | 'error' | 'data'
>) {
  const { t } = useTranslation('users');
  const { field, fieldState } = useController({ control, name });
  const value = (field.value as string | null | undefined) ?? null;
  const data = useMemo(
    () => [
      { value: BROWSER, label: t('timezone_browser_named', { tz: browserTimeZone() }) },
      ...timeZoneOptions(value).map((z) => ({ value: z, label: z.replaceAll('_', ' ') })),
    ],
    [t, value],
  );
  return (
    <Select
      {...props}
      name={field.name}
      ref={field.ref}
      data={data}
      value={value ?? BROWSER}
      onChange={(next) => field.onChange(!next || next === BROWSER ? null : next)}
      onBlur={field.onBlur}
      label={props.label ?? t('fields:timezone')}
      description={props.description ?? t('timezone_hint')}
      error={translateFieldError(fieldState.error?.message, name, t)}
      searchable
      allowDeselect={false}
      nothingFoundMessage={t('timezone_search')}
      limit={500}
    />
  );
}
