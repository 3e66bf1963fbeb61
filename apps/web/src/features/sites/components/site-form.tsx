import { paymentMethods, type Site, siteCategories, siteParser } from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { IconRss, IconTestPipe } from '@tabler/icons-react';
import { type ReactNode, useMemo, useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormNumberInput, FormSelect, FormSwitch, FormTextInput } from '../../../components/form-fields.tsx';
import { useAppAbility } from '../../../lib/ability.tsx';
import { moneyAffix } from '../../../lib/format.ts';
import { currentLocale } from '../../../lib/i18n.ts';
import { languageOptions } from '../../../lib/languages.ts';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { useParserTest, useRssTest } from '../api/sites-queries.ts';
import { DateFormatCheck } from './date-format-check.tsx';
import { FormTagsInput } from './form-controls.tsx';
import { ParserPreviewResult } from './parser-preview-result.tsx';
import {
  type SiteFormOutput,
  type SiteFormValues,
  siteFormDefaults,
  siteFormKeys,
  siteFormSchema,
  toSiteInput,
} from './site-form-schema.ts';
import { countryOptions, encodings, timezoneOptions } from './site-options.ts';

export type SiteSubmit = ReturnType<typeof toSiteInput>;

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: string;
  children: ReactNode;
}) {
  return (
    <Card padding="lg" radius="md" component="section" aria-label={title}>
      <Stack gap="md">
        <div>
          <Title order={2} fz="lg">
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" fz="sm">
              {description}
            </Text>
          ) : null}
        </div>
        {children}
      </Stack>
    </Card>
  );
}

function parserOf(values: SiteFormValues) {
  const raw: Record<string, unknown> = {};
  for (const key of Object.keys(siteParser.shape) as (keyof SiteFormValues)[]) {
    const value = values[key];
    raw[key] = (key === 'rss_url' || key === 'default_language') && value === '' ? null : value;
  }
  return siteParser.safeParse(raw);
}

/** Every Site field of SPEC.md, grouped; the parser tests need a saved site to fetch for. */
export function SiteForm({
  site,
  widgetOptions = [],
  onSubmit,
  submitLabel,
}: {
  site?: Site;
  widgetOptions?: { value: string; label: string }[];
  onSubmit: (input: SiteSubmit) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('sites');
  // revenue terms are set by admins: others see them, disabled, and send them back unchanged
  const termsLocked = !useAppAbility().can('update', 'RevenueTerms');
  const termsHint = termsLocked ? t('common:revenue_terms.admin_only') : undefined;
  // so is who sees the site's statistics (the server's assertStatsAccess)
  const accessLocked = termsLocked;
  const locale = currentLocale();
  const form = useForm<SiteFormValues, unknown, SiteFormOutput>({
    resolver: zodResolver(siteFormSchema, { error: validationErrorMap }),
    defaultValues: siteFormDefaults(site),
  });
  const { control } = form;
  const paymentMethod = useWatch({ control, name: 'payment_method' });
  const rssTest = useRssTest(site?._id ?? '');
  const parserTest = useParserTest(site?._id ?? '');
  const [testResult, setTestResult] = useState<Awaited<ReturnType<typeof rssTest.mutateAsync>> | null>(null);

  const categories = useMemo(
    () =>
      siteCategories
        .map((value) => ({ value, label: t(`categories.${value}`) }))
        .sort((a, b) => a.label.localeCompare(b.label, locale)),
    [t, locale],
  );
  const countries = useMemo(() => countryOptions(locale), [locale]);
  const languages = useMemo(() => languageOptions(locale), [locale]);
  const timezones = useMemo(() => timezoneOptions(), []);
  const statuses = ['active', 'inactive'].map((value) => ({ value, label: t(`status.${value}`) }));

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(toSiteInput(values));
    } catch (error) {
      applyServerErrors(error, form.setError, siteFormKeys);
    }
  });

  const runRssTest = async () => {
    setTestResult(null);
    setTestResult(await rssTest.mutateAsync());
  };
  const runParserTest = async () => {
    const parser = parserOf(form.getValues());
    if (!parser.success) {
      await form.trigger();
      return;
    }
    setTestResult(null);
    setTestResult(await parserTest.mutateAsync(parser.data));
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Section title={t('form.general')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTextInput control={control} name="title" required />
            <FormTextInput
              control={control}
              name="domain"
              required
              placeholder="example.com"
              description={t('form.domain_hint')}
            />
            <FormSelect control={control} name="category" data={categories} searchable required />
            <FormSelect control={control} name="status" data={statuses} allowDeselect={false} />
            <FormSelect control={control} name="country" data={countries} searchable clearable />
            <FormSelect control={control} name="language" data={languages} searchable clearable />
            <FormSelect control={control} name="timezone" data={timezones} searchable allowDeselect={false} />
            <FormTagsInput control={control} name="tags" description={t('form.tags_hint')} />
          </SimpleGrid>
        </Section>

        <Section title={t('form.content')} description={t('form.content_hint')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTagsInput control={control} name="blacklist_words" description={t('form.blacklist_hint')} />
            <FormNumberInput
              control={control}
              name="materials_lifetime"
              min={1}
              max={3650}
              suffix={` ${t('form.days')}`}
            />
            <FormTextInput control={control} name="url_mask" description={t('form.regex_hint')} />
            <FormTextInput
              control={control}
              name="default_advertorial_url"
              placeholder="https://"
              description={t('form.advertorial_hint')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            <FormSelect
              control={control}
              name="rss_version"
              data={['auto', 'rss2', 'rss1', 'atom'].map((value) => ({
                value,
                label: t(`rss_versions.${value}`),
              }))}
              allowDeselect={false}
            />
            <FormTextInput control={control} name="rss_url" placeholder="https://example.com/feed.xml" />
            <FormSelect control={control} name="encoding" data={encodings} allowDeselect={false} />
            <Stack gap={6}>
              <FormTextInput control={control} name="date_parse_string" placeholder="DD.MM.YYYY HH:mm" />
              <DateFormatCheck
                value={() => form.getValues('date_parse_string') ?? ''}
                onConverted={(format) => form.setValue('date_parse_string', format, { shouldDirty: true })}
              />
            </Stack>
            <FormTextInput control={control} name="category_mask" description={t('form.regex_hint')} />
            <FormTextInput control={control} name="title_mask" description={t('form.regex_hint')} />
            <FormTextInput control={control} name="image_mask" description={t('form.regex_hint')} />
            <FormTextInput control={control} name="image_prefix" placeholder="https://cdn.example.com" />
            <FormTextInput control={control} name="date_mask" description={t('form.regex_hint')} />
            <FormTextInput
              control={control}
              name="html_selector"
              placeholder="article h2 a"
              description={t('form.selector_hint')}
            />
            <FormTextInput control={control} name="tag_attribute" placeholder="href" />
            <FormSelect control={control} name="default_language" data={languages} searchable clearable />
          </SimpleGrid>
          <Group gap="xs">
            <Button
              variant="light"
              leftSection={<IconRss size={16} aria-hidden />}
              onClick={runRssTest}
              loading={rssTest.isPending}
              disabled={!site}
            >
              {t('parser_test.rss_test')}
            </Button>
            <Button
              variant="light"
              leftSection={<IconTestPipe size={16} aria-hidden />}
              onClick={runParserTest}
              loading={parserTest.isPending}
              disabled={!site}
            >
              {t('parser_test.parser_test')}
            </Button>
            {!site ? (
              <Text fz="sm" c="dimmed">
                {t('parser_test.save_first')}
              </Text>
            ) : null}
          </Group>
          {testResult ? <ParserPreviewResult result={testResult} /> : null}
        </Section>

        <Section title={t('form.statistics')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormSwitch control={control} name="use_noindex" description={t('form.use_noindex_hint')} />
            <FormSwitch control={control} name="mark_traffic" description={t('form.mark_traffic_hint')} />
            <FormSwitch
              control={control}
              name="advanced_stats"
              disabled={accessLocked}
              description={t('form.advanced_stats_hint')}
            />
            <FormSwitch
              control={control}
              name="stats_visible"
              disabled={accessLocked}
              description={t('form.stats_visible_hint')}
            />
            <FormSwitch
              control={control}
              name="stats_on_scroll"
              description={t('form.stats_on_scroll_hint')}
            />
            <FormSwitch
              control={control}
              name="strict_items_amount"
              description={t('form.strict_items_amount_hint')}
            />
            <FormSwitch control={control} name="is_infinite" description={t('form.is_infinite_hint')} />
          </SimpleGrid>
        </Section>

        <Section title={t('form.monetisation')} description={termsHint}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormSelect
              control={control}
              name="payment_method"
              disabled={termsLocked}
              data={paymentMethods.map((value) => ({ value, label: t(`payment_methods.${value}`) }))}
              allowDeselect={false}
              description={paymentMethod ? t(`payment_method_hints.${paymentMethod}`) : undefined}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            {paymentMethod === 'cpm' ? (
              <FormNumberInput
                control={control}
                name="cpm_rate"
                disabled={termsLocked}
                min={0}
                decimalScale={6}
                {...moneyAffix()}
                description={t('form.cpm_rate_hint')}
                inputWrapperOrder={['label', 'input', 'description', 'error']}
              />
            ) : null}
            <FormNumberInput
              control={control}
              name="agency_rate"
              disabled={termsLocked}
              min={0}
              max={100}
              suffix=" %"
              decimalScale={2}
            />
            <FormSelect
              control={control}
              name="billing_widget"
              disabled={termsLocked}
              data={widgetOptions}
              clearable
              placeholder={widgetOptions.length ? undefined : t('form.no_widgets')}
            />
          </SimpleGrid>
        </Section>

        <Section title={t('form.affiliate')} description={termsHint}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTextInput
              control={control}
              name="affiliate_user_id"
              disabled={termsLocked}
              inputMode="numeric"
              description={t('form.affiliate_hint')}
            />
            <FormNumberInput
              control={control}
              name="affiliate_earn_percent"
              disabled={termsLocked}
              min={0}
              max={100}
              suffix=" %"
              decimalScale={2}
            />
          </SimpleGrid>
        </Section>

        <Group justify="flex-end">
          <Button type="submit" loading={form.formState.isSubmitting}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
