import {
  browsers,
  devices,
  operatingSystems,
  type Targeting,
  type TargetingState,
  widgetTypes,
} from '@adp/contract';
import {
  ActionIcon,
  Badge,
  Button,
  Card,
  Chip,
  Group,
  MultiSelect,
  NumberInput,
  SegmentedControl,
  SimpleGrid,
  Stack,
  Switch,
  TagsInput,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { IconPlus, IconTrash } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DateField } from '../../../components/date-field.tsx';
import { currentLocale } from '../../../lib/i18n.ts';
import { languageOptions } from '../../../lib/languages.ts';
import { citiesByIdQuery, citySearchQuery, countriesQuery, userPixelsQuery } from '../api/banners-queries.ts';
import { weekdayName } from './targeting-options.ts';

type Dimension = Exclude<keyof Targeting, 'start_date' | 'end_date' | 'capping'>;
type Values<D extends Dimension> = Targeting[D]['values'];

/** The order the editor shows the dimensions in: time, audience, placement, network. */
export const dimensionOrder: Dimension[] = [
  'dates',
  'time',
  'hours',
  'weekdays',
  'days_of_month',
  'countries',
  'cities',
  'devices',
  'os',
  'browsers',
  'browser_languages',
  'user_languages',
  'sites',
  'widget_types',
  'site_languages',
  'ips',
  'pixels',
  'dsp_partners',
  'prebid_partners',
];

const states: TargetingState[] = ['inactive', 'active', 'negative'];

export interface TargetingEditorProps {
  value: Targeting;
  onChange: (next: Targeting) => void;
  /** The creative's owner: remarketing lists their pixels. */
  userId: string;
  /** Imports a CSV of IPs into the saved creative; absent before the creative exists. */
  ipImport?: ReactNode;
  /** Errors of the form under `targeting.<dimension>`. */
  errors?: Partial<Record<keyof Targeting, string>>;
}

function DimensionCard({
  name,
  state,
  onState,
  count,
  error,
  children,
}: {
  name: Dimension;
  state: TargetingState;
  onState: (s: TargetingState) => void;
  count: number;
  error?: string;
  children: ReactNode;
}) {
  const { t } = useTranslation('banners');
  const label = t(`targeting.dimensions.${name}`);
  return (
    <Card padding="md" radius="md" withBorder role="group" aria-label={label} data-dimension={name}>
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Title order={3} fz="sm">
            {label}
          </Title>
          {state !== 'inactive' ? (
            <Badge variant="light" color={state === 'active' ? 'teal' : 'orange'}>
              {t('targeting.selected', { count })}
            </Badge>
          ) : null}
        </Group>
        <SegmentedControl
          size="xs"
          fullWidth
          value={state}
          onChange={(next) => onState(next as TargetingState)}
          data={states.map((s) => ({ value: s, label: t(`targeting.states.${s}`) }))}
          aria-label={t('targeting.state_of', { name: label })}
          color={state === 'negative' ? 'orange' : state === 'active' ? 'teal' : undefined}
        />
        {state !== 'inactive' ? children : null}
        {error ? (
          <Text c="red" fz="xs" role="alert">
            {error}
          </Text>
        ) : null}
      </Stack>
    </Card>
  );
}

function ChipPicker({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string[];
  onChange: (next: string[]) => void;
}) {
  return (
    <Chip.Group multiple value={value} onChange={onChange}>
      <Group gap={6} role="group" aria-label={label}>
        {options.map((o) => (
          <Chip key={o.value} value={o.value} size="xs" variant="outline">
            {o.label}
          </Chip>
        ))}
      </Group>
    </Chip.Group>
  );
}

function RangeList({
  kind,
  value,
  onChange,
}: {
  kind: 'date' | 'time';
  value: { from: string; to: string }[];
  onChange: (next: { from: string; to: string }[]) => void;
}) {
  const { t } = useTranslation('banners');
  const set = (i: number, key: 'from' | 'to', v: string) =>
    onChange(value.map((row, j) => (j === i ? { ...row, [key]: v } : row)));
  return (
    <Stack gap="xs">
      {value.map((row, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their position
        <Group key={i} gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            type={kind}
            label={t('targeting.from')}
            value={row.from}
            onChange={(e) => set(i, 'from', e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <TextInput
            type={kind}
            label={t('targeting.to')}
            value={row.to}
            onChange={(e) => set(i, 'to', e.currentTarget.value)}
            style={{ flex: 1 }}
          />
          <ActionIcon
            variant="subtle"
            color="red"
            size="lg"
            aria-label={t('targeting.remove_range')}
            onClick={() => onChange(value.filter((_, j) => j !== i))}
          >
            <IconTrash size={16} aria-hidden />
          </ActionIcon>
        </Group>
      ))}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconPlus size={14} aria-hidden />}
        onClick={() =>
          onChange([
            ...value,
            kind === 'date'
              ? { from: new Date().toISOString().slice(0, 10), to: new Date().toISOString().slice(0, 10) }
              : { from: '09:00', to: '18:00' },
          ])
        }
        style={{ alignSelf: 'flex-start' }}
      >
        {t('targeting.add_range')}
      </Button>
    </Stack>
  );
}

function CityPicker({
  value,
  onChange,
  countries,
}: {
  value: number[];
  onChange: (next: number[]) => void;
  countries: string[];
}) {
  const { t } = useTranslation('banners');
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const country = countries.length === 1 ? countries[0] : undefined;
  const saved = useQuery(citiesByIdQuery(value));
  const found = useQuery(citySearchQuery(debounced, country));
  const known = new Map<string, string>();
  for (const city of [...(saved.data ?? []), ...(found.data ?? [])])
    known.set(String(city.id), `${city.name}, ${city.country}`);
  for (const id of value) if (!known.has(String(id))) known.set(String(id), `#${id}`);
  return (
    <MultiSelect
      label={t('targeting.dimensions.cities')}
      description={country ? t('targeting.cities_in', { country }) : t('targeting.cities_hint')}
      data={[...known].map(([v, label]) => ({ value: v, label }))}
      value={value.map(String)}
      onChange={(next) => onChange(next.map(Number))}
      searchable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      nothingFoundMessage={debounced.length >= 2 ? t('targeting.nothing_found') : t('targeting.type_more')}
      hidePickedOptions
    />
  );
}

/**
 * Every dimension of the contract's `targeting`, each off, "only these" or "all but these", with a
 * picker for its values; the result is the structure delivery's `matches()` reads.
 */
export function TargetingEditor({ value, onChange, userId, ipImport, errors = {} }: TargetingEditorProps) {
  const { t } = useTranslation('banners');
  const locale = currentLocale();
  const countries = useQuery(countriesQuery(locale));
  const pixels = useQuery(userPixelsQuery(userId));
  const languages = useMemo(() => languageOptions(locale), [locale]);
  const [ipText, setIpText] = useState(value.ips.values.join('\n'));

  const setDim = <D extends Dimension>(name: D, patch: Partial<Targeting[D]>) =>
    onChange({ ...value, [name]: { ...value[name], ...patch } });
  const setValues = <D extends Dimension>(name: D, values: Values<D>) =>
    setDim(name, { values } as Partial<Targeting[D]>);

  const numbers = (n: number, from: number, label?: (i: number) => string) =>
    Array.from({ length: n }, (_, i) => ({
      value: String(i + from),
      label: label ? label(i + from) : String(i + from),
    }));

  const picker = (name: Dimension): ReactNode => {
    const dimLabel = t(`targeting.dimensions.${name}`);
    switch (name) {
      case 'dates':
        return <RangeList kind="date" value={value.dates.values} onChange={(v) => setValues('dates', v)} />;
      case 'time':
        return (
          <>
            <Text fz="xs" c="dimmed">
              {t('targeting.server_time')}
            </Text>
            <RangeList kind="time" value={value.time.values} onChange={(v) => setValues('time', v)} />
          </>
        );
      case 'hours':
        return (
          <ChipPicker
            label={dimLabel}
            options={numbers(24, 0, (h) => String(h).padStart(2, '0'))}
            value={value.hours.values.map(String)}
            onChange={(v) =>
              setValues(
                'hours',
                v.map(Number).sort((a, b) => a - b),
              )
            }
          />
        );
      case 'weekdays':
        return (
          <ChipPicker
            label={dimLabel}
            options={numbers(7, 1, (d) => weekdayName(d, locale))}
            value={value.weekdays.values.map(String)}
            onChange={(v) =>
              setValues(
                'weekdays',
                v.map(Number).sort((a, b) => a - b),
              )
            }
          />
        );
      case 'days_of_month':
        return (
          <ChipPicker
            label={dimLabel}
            options={numbers(31, 1)}
            value={value.days_of_month.values.map(String)}
            onChange={(v) =>
              setValues(
                'days_of_month',
                v.map(Number).sort((a, b) => a - b),
              )
            }
          />
        );
      case 'devices':
        return (
          <ChipPicker
            label={dimLabel}
            options={devices.map((d) => ({ value: d, label: t(`targeting.device.${d}`) }))}
            value={value.devices.values}
            onChange={(v) => setValues('devices', v as Values<'devices'>)}
          />
        );
      case 'os':
        return (
          <ChipPicker
            label={dimLabel}
            options={operatingSystems.map((d) => ({ value: d, label: t(`targeting.os_names.${d}`) }))}
            value={value.os.values}
            onChange={(v) => setValues('os', v as Values<'os'>)}
          />
        );
      case 'browsers':
        return (
          <ChipPicker
            label={dimLabel}
            options={browsers.map((d) => ({ value: d, label: t(`targeting.browser.${d}`) }))}
            value={value.browsers.values}
            onChange={(v) => setValues('browsers', v as Values<'browsers'>)}
          />
        );
      case 'widget_types':
        return (
          <ChipPicker
            label={dimLabel}
            options={widgetTypes.map((d) => ({ value: d, label: t(`targeting.widget_type.${d}`) }))}
            value={value.widget_types.values}
            onChange={(v) => setValues('widget_types', v as Values<'widget_types'>)}
          />
        );
      case 'browser_languages':
      case 'user_languages':
      case 'site_languages':
        return (
          <MultiSelect
            label={dimLabel}
            data={languages}
            value={value[name].values}
            onChange={(v) => setValues(name, v)}
            searchable
            hidePickedOptions
          />
        );
      case 'countries':
        return (
          <MultiSelect
            label={dimLabel}
            data={(countries.data ?? []).map((c) => ({ value: c.code, label: `${c.name} (${c.code})` }))}
            value={value.countries.values}
            onChange={(v) => setValues('countries', v)}
            searchable
            hidePickedOptions
            nothingFoundMessage={t('targeting.nothing_found')}
          />
        );
      case 'cities':
        return (
          <CityPicker
            value={value.cities.values}
            onChange={(v) => setValues('cities', v)}
            countries={value.countries.state === 'active' ? value.countries.values : []}
          />
        );
      case 'pixels':
        return (
          <MultiSelect
            label={dimLabel}
            description={t('targeting.pixels_hint')}
            data={(pixels.data?.items ?? []).map((p) => ({ value: p._id, label: `${p.title} (#${p._id})` }))}
            value={value.pixels.values}
            onChange={(v) => setValues('pixels', v)}
            searchable
            nothingFoundMessage={t('targeting.no_pixels')}
          />
        );
      case 'sites':
      case 'dsp_partners':
      case 'prebid_partners':
        return (
          <TagsInput
            label={dimLabel}
            description={t('targeting.ids_hint')}
            value={value[name].values}
            onChange={(v) =>
              setValues(
                name,
                v.map((s) => s.trim()).filter((s) => /^\d{1,18}$/.test(s)),
              )
            }
            splitChars={[',', ' ', 'Enter']}
            clearable
          />
        );
      case 'ips':
        return (
          <Stack gap="xs">
            <Textarea
              label={dimLabel}
              description={t('targeting.ips_hint')}
              value={ipText}
              onChange={(e) => {
                setIpText(e.currentTarget.value);
                setValues(
                  'ips',
                  e.currentTarget.value
                    .split(/[\n,]/)
                    .map((s) => s.trim())
                    .filter(Boolean),
                );
              }}
              autosize
              minRows={3}
              maxRows={10}
              styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
            />
            {ipImport ?? (
              <Text fz="xs" c="dimmed">
                {t('targeting.ips_import_after_save')}
              </Text>
            )}
          </Stack>
        );
    }
  };

  const capping = value.capping;
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DateField
          label={t('targeting.start_date')}
          value={value.start_date ?? null}
          onChange={(next) => onChange({ ...value, start_date: next })}
          error={errors.start_date}
        />
        <DateField
          label={t('targeting.end_date')}
          value={value.end_date ?? null}
          onChange={(next) => onChange({ ...value, end_date: next })}
          error={errors.end_date}
        />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 3 }}>
        {dimensionOrder.map((name) => (
          <DimensionCard
            key={name}
            name={name}
            state={value[name].state}
            onState={(state) => setDim(name, { state } as Partial<Targeting[typeof name]>)}
            count={value[name].values.length}
            error={errors[name]}
          >
            {picker(name)}
          </DimensionCard>
        ))}
        <Card padding="md" radius="md" withBorder role="group" aria-label={t('targeting.dimensions.capping')}>
          <Stack gap="sm">
            <Title order={3} fz="sm">
              {t('targeting.dimensions.capping')}
            </Title>
            <Switch
              label={t('targeting.capping_on')}
              checked={capping.state === 'active'}
              onChange={(e) =>
                onChange({
                  ...value,
                  capping: { ...capping, state: e.currentTarget.checked ? 'active' : 'inactive' },
                })
              }
            />
            {capping.state === 'active' ? (
              <SimpleGrid cols={{ base: 1, xs: 3 }}>
                <NumberInput
                  label={t('targeting.capping_impressions')}
                  value={capping.impressions ?? ''}
                  min={1}
                  allowDecimal={false}
                  onChange={(v) =>
                    onChange({
                      ...value,
                      capping: { ...capping, impressions: typeof v === 'number' ? v : null },
                    })
                  }
                />
                <NumberInput
                  label={t('targeting.capping_clicks')}
                  value={capping.clicks ?? ''}
                  min={1}
                  allowDecimal={false}
                  onChange={(v) =>
                    onChange({ ...value, capping: { ...capping, clicks: typeof v === 'number' ? v : null } })
                  }
                />
                <NumberInput
                  label={t('targeting.capping_period')}
                  value={capping.period_hours}
                  min={1}
                  max={24 * 90}
                  allowDecimal={false}
                  onChange={(v) =>
                    onChange({
                      ...value,
                      capping: { ...capping, period_hours: typeof v === 'number' ? v : 24 },
                    })
                  }
                />
              </SimpleGrid>
            ) : null}
            {errors.capping ? (
              <Text c="red" fz="xs" role="alert">
                {errors.capping}
              </Text>
            ) : null}
          </Stack>
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
