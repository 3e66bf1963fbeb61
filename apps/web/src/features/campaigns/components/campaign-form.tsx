import {
  adsTypes,
  type Campaign,
  clickFilters,
  cpcFeedConfigExamples,
  cpcFeedProcessors,
  feedAdsTypes,
  iabCategoryCodes,
  iabTier1Codes,
  iabTier1Of,
  nativeAdsTypes,
  pacings,
  trackingMacros,
} from '@adp/contract';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Card, Code, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { IconRefresh } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useMemo } from 'react';
import { type Control, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  FormNumberInput,
  FormSelect,
  FormSwitch,
  FormTextarea,
  FormTextInput,
} from '../../../components/form-fields.tsx';
import { formatDateTime } from '../../../lib/format.ts';
import { applyServerErrors } from '../../../lib/server-field-errors.ts';
import { validationErrorMap } from '../../../lib/validation.ts';
import { ownerSitesQuery, siteWidgetsQuery, useCheckTargetCtr } from '../api/campaigns-queries.ts';
import { TargetCtrBadge } from './campaign-badges.tsx';
import {
  type CampaignFormOutput,
  type CampaignFormValues,
  campaignFormDefaults,
  campaignFormFields,
  campaignFormSchema,
} from './campaign-form-schema.ts';
import { FormLines, FormMultiSelect, FormTags } from './form-controls.tsx';

function Section({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
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

/**
 * The campaign's IAB content categories: grouped by tier-1 category, searchable by code or by the
 * category's name (each subcategory's label names its tier-1 category).
 */
function IabCategoriesSelect({ control }: { control: Control<CampaignFormValues> }) {
  const { t } = useTranslation('campaigns');
  const data = useMemo(
    () =>
      iabTier1Codes.map((tier1) => {
        const name = t(`iab.${tier1}`);
        return {
          group: `${tier1} · ${name}`,
          items: iabCategoryCodes
            .filter((code) => iabTier1Of(code) === tier1)
            .map((code) => ({
              value: code,
              label: code === tier1 ? `${code} · ${name}` : `${code} (${name})`,
            })),
        };
      }),
    [t],
  );
  return (
    <FormMultiSelect
      control={control}
      name="iab_categories"
      data={data}
      searchable
      clearable
      hidePickedOptions
      maxValues={50}
      placeholder={t('form.iab_categories_placeholder')}
      description={t('form.iab_categories_hint')}
      inputWrapperOrder={['label', 'input', 'description', 'error']}
    />
  );
}

/** The macros delivery fills in at click time, documented next to the tracking fields. */
export function TrackingMacros() {
  const { t } = useTranslation('campaigns');
  return (
    <Table withTableBorder fz="sm" aria-label={t('form.macros_title')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th>{t('form.macro')}</Table.Th>
          <Table.Th>{t('form.macro_meaning')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {trackingMacros.map((macro) => (
          <Table.Tr key={macro}>
            <Table.Td>
              <Code>{macro}</Code>
            </Table.Td>
            <Table.Td>{t(`macros.${macro.slice(1, -1)}`)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** What `src_code` holds for a CPC feed campaign: the chosen feed's settings as JSON, with an example. */
function FeedConfigHint({ processor }: { processor: (typeof cpcFeedProcessors)[number] | null | undefined }) {
  const { t } = useTranslation('campaigns');
  if (!processor) return <>{t('form.src_code_feed_choose')}</>;
  return (
    <>
      {t('form.src_code_feed_hint', { processor })}{' '}
      <Code data-testid="feed-config-example">{JSON.stringify(cpcFeedConfigExamples[processor])}</Code>
    </>
  );
}

function TargetCtrCheck({ campaign }: { campaign: Campaign }) {
  const { t } = useTranslation('campaigns');
  const check = useCheckTargetCtr(campaign._id);
  return (
    <Group gap="sm" align="center">
      <TargetCtrBadge status={campaign.target_ctr_status} />
      <Text fz="sm" c="dimmed">
        {t('form.target_ctr_checked_at', { date: formatDateTime(campaign.target_ctr_check_date) })}
      </Text>
      {check.data ? (
        <Text fz="sm">
          {t('form.target_ctr_result', {
            ctr: check.data.ctr,
            clicks: check.data.clicks,
            impressions: check.data.impressions,
          })}
        </Text>
      ) : null}
      {check.data?.message ? (
        <Text fz="sm" c={check.data.status === 'unchecked' ? 'orange' : 'red'} role="status">
          {check.data.message}
          {check.data.status === 'unchecked'
            ? ` ${t('form.target_ctr_too_few', {
                min: check.data.min_impressions,
                impressions: check.data.impressions,
              })}`
            : null}
        </Text>
      ) : null}
      <Button
        size="xs"
        variant="light"
        leftSection={<IconRefresh size={14} aria-hidden />}
        loading={check.isPending}
        onClick={() => check.mutate()}
      >
        {t('form.check_now')}
      </Button>
    </Group>
  );
}

/** Every Campaign field of SPEC.md section 3, grouped; validated by the contract schema. */
export function CampaignForm({
  campaign,
  userId,
  onSubmit,
  submitLabel,
}: {
  campaign?: Campaign;
  userId: string;
  onSubmit: (input: CampaignFormOutput) => Promise<unknown>;
  submitLabel: string;
}) {
  const { t } = useTranslation('campaigns');
  const form = useForm<CampaignFormValues, unknown, CampaignFormOutput>({
    resolver: zodResolver(campaignFormSchema, { error: validationErrorMap }),
    defaultValues: campaignFormDefaults(campaign),
  });
  const { control } = form;
  const siteId = useWatch({ control, name: 'site_id' }) ?? null;
  const adstype = useWatch({ control, name: 'adstype' });
  const feedProcessor = useWatch({ control, name: 'cpc_feed_processor' });
  const isFeed = feedAdsTypes.has(adstype ?? '');
  const sites = useQuery(ownerSitesQuery(userId));
  const widgets = useQuery(siteWidgetsQuery(siteId));
  const siteOptions = (sites.data?.items ?? []).map((s) => ({
    value: s._id,
    label: `${s.title} (#${s._id})`,
  }));
  if (siteId && !siteOptions.some((o) => o.value === siteId))
    siteOptions.push({ value: siteId, label: `#${siteId}` });
  const widgetOptions = (widgets.data?.items ?? []).map((w) => ({
    value: w._id,
    label: `${w.title} (#${w._id})`,
  }));
  for (const id of form.getValues('widgets') ?? [])
    if (!widgetOptions.some((o) => o.value === id)) widgetOptions.push({ value: id, label: `#${id}` });

  const submit = form.handleSubmit(async (values) => {
    try {
      await onSubmit(values);
    } catch (error) {
      applyServerErrors(error, form.setError, campaignFormFields);
    }
  });

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <Section title={t('form.general')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTextInput control={control} name="title" required />
            <FormSelect
              control={control}
              name="adstype"
              data={adsTypes.map((value) => ({ value, label: t(`adstypes.${value}`) }))}
              allowDeselect={false}
              description={adstype ? t(`adstype_hints.${adstype}`) : undefined}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            <FormNumberInput control={control} name="clickprice" min={0} decimalScale={6} required />
            <FormNumberInput
              control={control}
              name="dailyclicks"
              min={0}
              allowDecimal={false}
              description={t('form.dailyclicks_hint')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            <FormNumberInput
              control={control}
              name="daily_budget"
              min={0}
              decimalScale={6}
              description={t('form.daily_budget_hint')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            <FormSelect
              control={control}
              name="pacing"
              data={pacings.map((value) => ({ value, label: t(`pacing.${value}`) }))}
              allowDeselect={false}
              description={t('form.pacing_hint')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
            <FormNumberInput control={control} name="weight" min={0} max={1000} allowDecimal={false} />
            <FormSelect
              control={control}
              name="click_filter"
              data={clickFilters.map((value) => ({ value, label: t(`click_filters.${value}`) }))}
              allowDeselect={false}
            />
            <FormTextInput control={control} name="brand_name" />
            <FormTextInput control={control} name="sub_category" />
            <IabCategoriesSelect control={control} />
            <FormSelect
              control={control}
              name="site_id"
              data={siteOptions}
              clearable
              searchable
              placeholder={t('form.none')}
            />
            <FormMultiSelect
              control={control}
              name="widgets"
              data={widgetOptions}
              searchable
              disabled={!siteId}
              description={siteId ? undefined : t('form.widgets_need_site')}
              inputWrapperOrder={['label', 'input', 'description', 'error']}
            />
          </SimpleGrid>
        </Section>

        <Section title={t('form.tracking')} description={t('form.tracking_hint')}>
          <FormTextInput
            control={control}
            name="utm"
            placeholder="utm_source=adp&utm_campaign={campaign_id}"
          />
          <FormLines
            control={control}
            name="track_urls"
            description={t('form.track_urls_hint')}
            placeholder="https://tracker.example/click?id={click_id}"
          />
          <TrackingMacros />
        </Section>

        <Section title={t('form.delivery')}>
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormSelect
              control={control}
              name="cpc_feed_processor"
              data={cpcFeedProcessors.map((value) => ({ value, label: value }))}
              clearable
              placeholder={t('form.none')}
            />
            <Stack gap="xs" justify="flex-end">
              <FormSwitch control={control} name="hide_clicks_sites" />
              <FormSwitch control={control} name="on_image_load" />
            </Stack>
          </SimpleGrid>
          <FormTextarea
            control={control}
            name="src_code"
            autosize
            minRows={adstype === 'adsense' || isFeed ? 4 : 2}
            label={isFeed ? t('form.src_code_feed_label') : t('fields:src_code')}
            description={isFeed ? <FeedConfigHint processor={feedProcessor} /> : t('form.src_code_hint')}
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
        </Section>

        <Section
          title={t('form.openrtb')}
          description={
            adstype && !nativeAdsTypes.has(adstype)
              ? `${t('form.openrtb_hint')} ${t('form.openrtb_native_only')}`
              : t('form.openrtb_hint')
          }
        >
          <Group gap="lg">
            <FormSwitch control={control} name="openrtb.enabled" />
            <FormSwitch control={control} name="openrtb.only_openrtb" />
            <FormSwitch control={control} name="openrtb.target_ctr_auto" />
          </Group>
          <SimpleGrid cols={{ base: 1, sm: 3 }}>
            <FormNumberInput control={control} name="openrtb.daily_budget_limit" min={0} decimalScale={6} />
            <FormNumberInput
              control={control}
              name="openrtb.target_ctr"
              min={0}
              max={100}
              decimalScale={4}
              suffix=" %"
              description={t('form.target_ctr_hint')}
            />
            <FormNumberInput control={control} name="openrtb.ecpm_bid" min={0} decimalScale={6} />
          </SimpleGrid>
          {campaign ? <TargetCtrCheck campaign={campaign} /> : null}
          <SimpleGrid cols={{ base: 1, sm: 2 }}>
            <FormTags control={control} name="openrtb.dsp_whitelist" description={t('form.ids_hint')} />
            <FormTags control={control} name="openrtb.dsp_blacklist" description={t('form.ids_hint')} />
            <FormTags
              control={control}
              name="openrtb.source_whitelist"
              description={t('form.sources_hint')}
            />
            <FormTags
              control={control}
              name="openrtb.source_blacklist"
              description={t('form.sources_hint')}
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
