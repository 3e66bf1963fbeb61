import type { ClickRow, ImpressionRatePage, PixelClicksPage } from '@adp/contract';
import { LineChart } from '@mantine/charts';
import '@mantine/charts/styles.css';
import { Badge, Card, Code, Group, Select, SimpleGrid, Stack, Text, Tooltip } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { CopyTextButton } from '../../components/copy-text-button.tsx';
import type { Column } from '../../components/data-table.tsx';
import { useSiteStatsAccess } from '../../components/site-stats-access.tsx';
import { FileButtons } from '../../components/stats/file-buttons.tsx';
import { brandName, countryName, deviceClasses, formatShortDay } from '../../components/stats/stats-keys.ts';
import { formatDateTime, formatMoney, formatNumber, formatPercent } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import { servingOrigin } from '../../lib/url.ts';
import { type ListName, useClicksList, useSubject } from './api/clicks-queries.ts';
import type { ClicksLayout, ClicksTab } from './components/clicks-layout.tsx';
import { CLICKS_LIMIT, ClicksListPage } from './components/clicks-list-page.tsx';
import { type ClicksParams, useClicksParams } from './components/clicks-range.tsx';

const LIMIT = CLICKS_LIMIT;

type T = (key: string, options?: Record<string, unknown>) => string;

/** A device class ('mobile') in the viewer's language; anything else as recorded. */
const deviceText = (device: string, t: T) =>
  (deviceClasses as readonly string[]).includes(device) ? t(`stats:devices.${device}`) : device;

/** The campaign's click screens, in the order of their tabs. */
const campaignScreens = ['clicks', 'impressions', 'geoclicks', 'pixelclicks', 'postback'] as const;
/** The site's click screens. */
const siteScreens = ['clicks', 'click-sources', 'geoclicks', 'impression-rate', 'toparticles'] as const;

const titleKey = (screen: string) => `title.${screen.replace('-', '_')}`;

function tabsOf(screens: readonly string[], t: T): ClicksTab[] {
  return screens.map((path) => ({ path, label: t(titleKey(path)) }));
}

/** The status filter of click lists: all, valid or invalid. */
function StatusFilter({ state }: { state: ClicksParams }) {
  const { t } = useTranslation('clicks');
  return (
    <Select
      label={t('filter.status')}
      w={150}
      allowDeselect={false}
      value={state.get('status') ?? 'all'}
      data={[
        { value: 'all', label: t('filter.all') },
        { value: 'valid', label: t('status.valid') },
        { value: 'invalid', label: t('status.invalid') },
      ]}
      onChange={(v) => state.update({ status: v === 'all' ? null : v })}
    />
  );
}

const statusParam = (state: ClicksParams) => {
  const s = state.get('status');
  return s === 'valid' || s === 'invalid' ? s : undefined;
};

/**
 * CSV and XLSX of every row of a list's range and filters (the screen shows them a page at a time), in the
 * columns the screen shows: `list` is the list's API path (`campaigns/5/clicks`), `query` its filters.
 */
export function ListFileButtons({
  list,
  state,
  query = {},
}: {
  list: string;
  state: ClicksParams;
  query?: Record<string, string | undefined>;
}) {
  const [entity = '', id = '', ...name] = list.split('/');
  return (
    <FileButtons
      path={`/${list}/export`}
      query={{ from: state.from, to: state.to, tz: state.tz, ...query }}
      fallback={`stats-${[entity.replace(/s$/, ''), id, ...name, query.group].filter(Boolean).join('-')}-${state.from}-${state.to}.csv`}
    />
  );
}

/** A click's status badge, with the reason it was not charged. */
function StatusCell({ row }: { row: ClickRow }) {
  const { t } = useTranslation('clicks');
  if (row.status === 'valid')
    return (
      <Badge color="green" variant="light">
        {t('status.valid')}
      </Badge>
    );
  return (
    <Stack gap={2}>
      <Badge color="red" variant="light">
        {t('status.invalid')}
      </Badge>
      {row.reason ? (
        <Text fz="xs" c="dimmed">
          {t(`reasons.${row.reason}`, { defaultValue: row.reason })}
        </Text>
      ) : null}
    </Stack>
  );
}

export function TwoLines({
  top,
  bottom,
  minWidth,
}: {
  top: string;
  bottom?: string | null | undefined;
  minWidth?: number;
}) {
  return (
    <Stack gap={0} miw={minWidth}>
      <Text fz="sm">{top}</Text>
      {bottom ? (
        <Text fz="xs" c="dimmed">
          {bottom}
        </Text>
      ) : null}
    </Stack>
  );
}

/** The columns of a click list: the advertiser's (price) or the publisher's (earned), IP when answered. */
function clickColumns<R extends ClickRow>(
  t: T,
  currency: string,
  rows: R[],
  opts: { sitesHidden: boolean; tz: string },
): Column<R>[] {
  const unknown = t('unknown');
  const cols: Column<R>[] = [
    {
      key: 'time',
      header: t('columns.time'),
      // in the zone of the period the list shows
      cell: (r) => formatDateTime(r.created_at, currentLocale(), opts.tz),
      nowrap: true,
    },
    { key: 'status', header: t('columns.status'), cell: (r) => <StatusCell row={r} /> },
    {
      key: 'creative',
      header: t('columns.creative'),
      cell: (r) => (
        <Text fz="sm" miw={160} maw={260} title={`#${r.banner_id}`}>
          {r.banner_title ?? `#${r.banner_id}`}
        </Text>
      ),
    },
  ];
  if (!opts.sitesHidden)
    cols.push({
      key: 'site',
      header: t('columns.site_widget'),
      cell: (r) =>
        r.site_id === null ? (
          <Text fz="sm">{unknown}</Text>
        ) : (
          <TwoLines
            minWidth={140}
            top={r.site_title ?? `#${r.site_id}`}
            bottom={r.widget_id ? (r.widget_title ?? `#${r.widget_id}`) : null}
          />
        ),
    });
  cols.push(
    {
      key: 'geo',
      header: t('columns.geo'),
      cell: (r) => (
        <TwoLines
          top={[r.country ? countryName(r.country, currentLocale()) : unknown, r.city]
            .filter(Boolean)
            .join(' · ')}
        />
      ),
      nowrap: true,
    },
    {
      key: 'device',
      header: t('columns.device'),
      // device classes in the viewer's language, OS and browser names as their makers write them
      cell: (r) => (
        <TwoLines
          top={r.device ? deviceText(r.device, t) : unknown}
          bottom={[r.os, r.browser]
            .filter(Boolean)
            .map((v) => brandName(v as string))
            .join(' · ')}
        />
      ),
    },
  );
  if (rows.some((r) => r.price !== undefined))
    cols.push({
      key: 'price',
      header: t('columns.price'),
      cell: (r) => (r.price === undefined ? '' : formatMoney(r.price, currency)),
      align: 'right',
      nowrap: true,
    });
  if (rows.some((r) => r.earned !== undefined))
    cols.push({
      key: 'earned',
      header: t('columns.earned'),
      cell: (r) => (r.earned === undefined ? '' : formatMoney(r.earned, currency)),
      align: 'right',
      nowrap: true,
    });
  if (rows.some((r) => r.ip !== undefined))
    cols.push({ key: 'ip', header: t('columns.ip'), cell: (r) => r.ip ?? '', nowrap: true });
  return cols;
}

/** Where a screen of a campaign, site or widget lives, and what it is about. */
function useCampaignFrame(screen: string) {
  const { t } = useTranslation('clicks');
  const { userId = '', id = '' } = useParams();
  const { subject, currency } = useSubject('campaigns', id);
  const base = `/users/${userId}/campaigns/${id}`;
  usePageTitle(t(titleKey(screen)));
  return {
    id,
    currency,
    frame: {
      title: t(titleKey(screen)),
      subtitle: subject.data ? `${subject.data.title} · #${id}` : `#${id}`,
      back: { to: base, label: subject.data?.title ?? t('back.campaign') },
      base,
      tabs: tabsOf(campaignScreens, t),
      current: screen,
    },
  };
}

export function useSiteFrame(screen: string) {
  const { t } = useTranslation('clicks');
  const { siteId = '' } = useParams();
  const { subject, currency } = useSubject('sites', siteId);
  const access = useSiteStatsAccess(subject.data);
  const base = `/sites/${siteId}`;
  usePageTitle(t(titleKey(screen)));
  return {
    id: siteId,
    currency,
    frame: {
      title: t(titleKey(screen)),
      subtitle: subject.data ? `${subject.data.title} · ${subject.data.domain}` : `#${siteId}`,
      back: { to: base, label: subject.data?.title ?? t('back.site') },
      base,
      // the click list is the site's advanced statistics: no tab to it without them (the other tabs stay)
      tabs: tabsOf(
        siteScreens.filter((s) => s !== 'clicks' || access === 'advanced' || s === screen),
        t,
      ),
      current: screen,
    },
  };
}

/** A click list (a campaign's, a site's or a widget's): range, status filter, paged table. */
function ClickList({
  name,
  id,
  currency,
  frame,
}: {
  name: Extract<ListName, 'campaigns/clicks' | 'sites/clicks' | 'widgets/clicks'>;
  id: string;
  currency: string;
  frame: Omit<Parameters<typeof ClicksLayout>[0], 'bar' | 'children'>;
}) {
  const { t } = useTranslation('clicks');
  const state = useClicksParams();
  const list = useClicksList(name, id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
    status: statusParam(state),
  });
  const rows = list.data?.items ?? [];
  const hidden = list.data?.sites_hidden ?? false;
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      filters={
        <>
          <StatusFilter state={state} />
          <ListFileButtons
            list={`${name.split('/')[0]}/${encodeURIComponent(id)}/${name.split('/')[1]}`}
            state={state}
            query={{ status: statusParam(state) }}
          />
        </>
      }
      columns={clickColumns(t, currency, rows, { sitesHidden: hidden, tz: state.tz })}
      rowKey={(r) => r._id}
      minWidth={900}
    >
      {hidden ? (
        <Text fz="sm" c="dimmed">
          {t('hidden')}
        </Text>
      ) : null}
    </ClicksListPage>
  );
}

export function CampaignClicksPage() {
  const { id, currency, frame } = useCampaignFrame('clicks');
  return <ClickList name="campaigns/clicks" id={id} currency={currency} frame={frame} />;
}

export function SiteClicksPage() {
  const { id, currency, frame } = useSiteFrame('clicks');
  return <ClickList name="sites/clicks" id={id} currency={currency} frame={frame} />;
}

export function WidgetClicksPage() {
  const { t } = useTranslation('clicks');
  const { widgetId = '' } = useParams();
  const { subject, currency } = useSubject('widgets', widgetId);
  usePageTitle(t('title.widget_clicks'));
  const base = `/widgets/${widgetId}`;
  return (
    <ClickList
      name="widgets/clicks"
      id={widgetId}
      currency={currency}
      frame={{
        title: t('title.widget_clicks'),
        subtitle: subject.data ? `${subject.data.title} · #${widgetId}` : `#${widgetId}`,
        back: { to: base, label: subject.data?.title ?? t('back.widget') },
        base,
        tabs: [],
        current: 'clicks',
      }}
    />
  );
}

export function CampaignPostbackPage() {
  const { t } = useTranslation('clicks');
  const { id, currency, frame } = useCampaignFrame('postback');
  const state = useClicksParams();
  const list = useClicksList('campaigns/postback', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
    status: statusParam(state),
  });
  const rows = list.data?.items ?? [];
  const hidden = list.data?.sites_hidden ?? false;
  const columns: Column<ClickRow>[] = [
    {
      key: 'converted_at',
      header: t('columns.converted_at'),
      cell: (r) => formatDateTime(r.converted_at, currentLocale(), state.tz),
      nowrap: true,
    },
    {
      key: 'conversion_sum',
      header: t('columns.conversion_sum'),
      cell: (r) => (r.conversion_sum === null ? '—' : formatMoney(r.conversion_sum, currency)),
      align: 'right',
      nowrap: true,
    },
    {
      key: 'conversion_status',
      header: t('columns.conversion_status'),
      cell: (r) => r.conversion_status ?? '—',
    },
    {
      key: 'click_id',
      header: t('columns.click_id'),
      cell: (r) => (
        <Text ff="monospace" fz="xs">
          {r._id}
        </Text>
      ),
    },
    ...clickColumns(t, currency, rows, { sitesHidden: hidden, tz: state.tz }).map((c) =>
      c.key === 'time' ? { ...c, header: t('columns.clicked_at') } : c,
    ),
  ];
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      filters={
        <>
          <StatusFilter state={state} />
          <ListFileButtons
            list={`campaigns/${encodeURIComponent(id)}/postback`}
            state={state}
            query={{ status: statusParam(state) }}
          />
        </>
      }
      columns={columns}
      rowKey={(r) => r._id}
      minWidth={1100}
    >
      {list.data ? (
        <Text fz="sm">
          {t('postback_totals', {
            count: list.data.conversions,
            n: formatNumber(list.data.conversions),
            sum: formatMoney(list.data.sum, currency),
          })}
        </Text>
      ) : null}
      <Text fz="xs" c="dimmed">
        {t('postback_note')}
      </Text>
      <PostbackUrlCard />
    </ClicksListPage>
  );
}

/** How an advertiser's server reports a conversion: the postback URL with the click id of the visit. */
function PostbackUrlCard() {
  const { t } = useTranslation('clicks');
  const url = `${servingOrigin()}/postback?click_id={click_id}`;
  return (
    <Card withBorder padding="sm" data-testid="postback-url">
      <Stack gap={6}>
        <Text fw={600} fz="sm">
          {t('postback_url.title')}
        </Text>
        <Group gap="xs" wrap="wrap" align="center">
          <Code fz="sm" style={{ overflowWrap: 'anywhere' }}>
            {url}
          </Code>
          <CopyTextButton value={url} label={t('postback_url.copy')} copiedLabel={t('postback_url.copied')} />
        </Group>
        <Text fz="xs" c="dimmed">
          {t('postback_url.help')}
        </Text>
      </Stack>
    </Card>
  );
}

export function CampaignPixelClicksPage() {
  const { t } = useTranslation('clicks');
  const { id, currency, frame } = useCampaignFrame('pixelclicks');
  const state = useClicksParams();
  const list = useClicksList('campaigns/pixelclicks', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
    status: statusParam(state),
  });
  type Row = PixelClicksPage['items'][number];
  const rows = list.data?.items ?? [];
  const hidden = list.data?.sites_hidden ?? false;
  const columns: Column<Row>[] = [
    ...clickColumns(t, currency, rows, { sitesHidden: hidden, tz: state.tz }),
    {
      key: 'pixel',
      header: t('columns.pixel'),
      cell: (r) => <TwoLines top={r.pixel_title} bottom={`#${r.pixel_id}`} />,
    },
    {
      key: 'pixel_seen',
      header: t('columns.pixel_seen'),
      cell: (r) => (
        <Stack gap={0}>
          <Text fz="sm">{formatDateTime(r.pixel_seen_at, currentLocale(), state.tz)}</Text>
          {r.pixel_url ? (
            <Tooltip label={r.pixel_url} multiline maw={360}>
              <Text fz="xs" c="dimmed" maw={220} truncate="end">
                {r.pixel_url}
              </Text>
            </Tooltip>
          ) : null}
          <Text fz="xs" c="dimmed">
            {t('pixel_visits', { count: r.pixel_visits })}
          </Text>
        </Stack>
      ),
    },
  ];
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      filters={
        <>
          <StatusFilter state={state} />
          <ListFileButtons
            list={`campaigns/${encodeURIComponent(id)}/pixelclicks`}
            state={state}
            query={{ status: statusParam(state) }}
          />
        </>
      }
      columns={columns}
      rowKey={(r) => `${r._id}-${r.pixel_id}`}
      minWidth={1100}
    >
      <Text fz="xs" c="dimmed">
        {t('pixel_note')}
      </Text>
    </ClicksListPage>
  );
}

export function CampaignImpressionsPage() {
  const { t } = useTranslation('clicks');
  const { id, currency, frame } = useCampaignFrame('impressions');
  const state = useClicksParams();
  const list = useClicksList('campaigns/impressions', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
  });
  const data = list.data;
  type Row = NonNullable<typeof data>['items'][number];
  const columns: Column<Row>[] = [
    {
      key: 'site',
      header: t('columns.site'),
      cell: (r) =>
        r.site_id ? (
          <TwoLines top={r.site_title ?? ''} bottom={`#${r.site_id}`} />
        ) : (
          t(r.exchange ? 'exchange' : 'unknown')
        ),
    },
    {
      key: 'widget',
      header: t('columns.widget'),
      cell: (r) =>
        r.widget_id ? (
          <TwoLines top={r.widget_title ?? ''} bottom={`#${r.widget_id}`} />
        ) : (
          t(r.exchange ? 'exchange' : 'unknown')
        ),
    },
    {
      key: 'impressions',
      header: t('columns.impressions'),
      cell: (r) => formatNumber(r.impressions),
      align: 'right',
    },
    { key: 'viewable', header: t('columns.viewable'), cell: (r) => formatNumber(r.viewable), align: 'right' },
    { key: 'clicks', header: t('columns.clicks'), cell: (r) => formatNumber(r.clicks), align: 'right' },
    { key: 'ctr', header: t('columns.ctr'), cell: (r) => formatPercent(r.ctr), align: 'right' },
    {
      key: 'spent',
      header: t('columns.spent'),
      cell: (r) => formatMoney(r.spent, currency),
      align: 'right',
      nowrap: true,
    },
  ];
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      columns={columns}
      rowKey={(r) => `${r.site_id}-${r.widget_id}`}
      minWidth={760}
      filters={<ListFileButtons list={`campaigns/${encodeURIComponent(id)}/impressions`} state={state} />}
      table={
        data?.sites_hidden ? (
          <Text fz="sm" c="dimmed">
            {t('hidden')}
          </Text>
        ) : undefined
      }
    >
      {data ? (
        <SimpleGrid cols={{ base: 2, sm: 4 }}>
          <Total label={t('columns.impressions')} value={formatNumber(data.totals.impressions)} />
          <Total label={t('columns.viewable')} value={formatNumber(data.totals.viewable)} />
          <Total label={t('columns.clicks')} value={formatNumber(data.totals.clicks)} />
          <Total label={t('columns.spent')} value={formatMoney(data.totals.spent, currency)} />
        </SimpleGrid>
      ) : null}
    </ClicksListPage>
  );
}

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Card padding="sm" radius="md" withBorder>
      <Text fz="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="lg" fw={600}>
        {value}
      </Text>
    </Card>
  );
}

/** Geo clicks of a campaign or a site: by country (and city where known), most clicks first. */
function GeoClicks({
  kind,
  id,
  currency,
  frame,
}: { kind: 'campaigns' | 'sites' } & ReturnType<typeof useCampaignFrame>) {
  const { t } = useTranslation('clicks');
  const state = useClicksParams();
  const list = useClicksList(kind === 'campaigns' ? 'campaigns/geoclicks' : 'sites/geoclicks', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
  });
  const regions = new Intl.DisplayNames([currentLocale()], { type: 'region' });
  const countryName = (code: string) => {
    if (code === 'unknown' || !/^[A-Z]{2}$/.test(code)) return t('unknown');
    try {
      return regions.of(code) ?? code;
    } catch {
      return code;
    }
  };
  type Row = NonNullable<typeof list.data>['items'][number];
  const columns: Column<Row>[] = [
    {
      key: 'country',
      header: t('columns.country'),
      cell: (r) => (
        <TwoLines top={countryName(r.country)} bottom={r.country === 'unknown' ? null : r.country} />
      ),
    },
    { key: 'city', header: t('columns.city'), cell: (r) => r.city || '—' },
    { key: 'clicks', header: t('columns.clicks'), cell: (r) => formatNumber(r.clicks), align: 'right' },
    {
      key: 'invalid',
      header: t('columns.invalid_clicks'),
      cell: (r) => formatNumber(r.invalid_clicks),
      align: 'right',
    },
    {
      key: 'money',
      header: kind === 'campaigns' ? t('columns.spent') : t('columns.earned'),
      cell: (r) => formatMoney(r.money, currency),
      align: 'right',
      nowrap: true,
    },
  ];
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      columns={columns}
      rowKey={(r) => `${r.country}-${r.city}`}
      filters={<ListFileButtons list={`${kind}/${encodeURIComponent(id)}/geoclicks`} state={state} />}
    />
  );
}

export function CampaignGeoClicksPage() {
  return <GeoClicks kind="campaigns" {...useCampaignFrame('geoclicks')} />;
}
export function SiteGeoClicksPage() {
  return <GeoClicks kind="sites" {...useSiteFrame('geoclicks')} />;
}

export function SiteClickSourcesPage() {
  const { t } = useTranslation('clicks');
  const { id, currency, frame } = useSiteFrame('click-sources');
  const state = useClicksParams();
  const group = (['domain', 'page', 'widget'] as const).find((g) => g === state.get('group')) ?? 'domain';
  const list = useClicksList('sites/click-sources', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: LIMIT,
    group,
  });
  type Row = NonNullable<typeof list.data>['items'][number];
  const keyCell = (r: Row) => {
    if (group === 'widget') return <TwoLines top={r.widget_title ?? t('unknown')} bottom={`#${r.key}`} />;
    if (!r.key)
      return (
        <Text fz="sm" c="dimmed">
          {t('no_referrer')}
        </Text>
      );
    return (
      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {r.key}
      </Text>
    );
  };
  const columns: Column<Row>[] = [
    { key: 'key', header: t(`filter.${group}`), cell: keyCell },
    { key: 'clicks', header: t('columns.clicks'), cell: (r) => formatNumber(r.clicks), align: 'right' },
    {
      key: 'invalid',
      header: t('columns.invalid_clicks'),
      cell: (r) => formatNumber(r.invalid_clicks),
      align: 'right',
    },
    {
      key: 'earned',
      header: t('columns.earned'),
      cell: (r) => formatMoney(r.earned, currency),
      align: 'right',
      nowrap: true,
    },
  ];
  const refreshed = list.data?.refreshed_at;
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      columns={columns}
      rowKey={(r) => r.key}
      minWidth={520}
      filters={
        <>
          <Select
            label={t('filter.group')}
            w={150}
            allowDeselect={false}
            value={group}
            data={(['domain', 'page', 'widget'] as const).map((g) => ({ value: g, label: t(`filter.${g}`) }))}
            onChange={(v) => state.update({ group: v === 'domain' ? null : v })}
          />
          <ListFileButtons
            list={`sites/${encodeURIComponent(id)}/click-sources`}
            state={state}
            query={{ group }}
          />
        </>
      }
    >
      {list.data ? (
        <Text fz="sm" c="dimmed">
          {refreshed ? t('refreshed', { time: formatDateTime(refreshed) }) : t('never_refreshed')}
        </Text>
      ) : null}
    </ClicksListPage>
  );
}

const chartColors = ['blue.6', 'teal.6', 'orange.6', 'grape.6', 'red.6', 'cyan.6', 'lime.7', 'pink.6'];

function RateChart({ data, t }: { data: ImpressionRatePage; t: T }) {
  const items = data.items.slice(0, chartColors.length);
  const days = items[0]?.days ?? [];
  const rows = days.map((d, i) => {
    // the day as every other chart writes it ("22. Nov.", "22 нояб.")
    const row: Record<string, string | number | null> = { day: formatShortDay(d.day, currentLocale()) };
    // a day without requests has no rate: a gap, not 0 %
    for (const w of items) row[w.widget_id] = w.days[i]?.requests ? (w.days[i]?.impression_rate ?? 0) : null;
    return row;
  });
  return (
    <Card padding="md" radius="md" withBorder>
      <LineChart
        h={240}
        data={rows}
        dataKey="day"
        curveType="linear"
        connectNulls={false}
        yAxisProps={{ domain: [0, 100] }}
        // the rate as the table writes it ("92,42 %")
        valueFormatter={(value) => formatPercent(value)}
        xAxisProps={{ minTickGap: 16 }}
        series={items.map((w, i) => ({
          name: w.widget_id,
          label: w.widget_title,
          color: chartColors[i] ?? 'gray.6',
        }))}
        withLegend
        aria-label={t('title.impression_rate')}
      />
    </Card>
  );
}

export function SiteImpressionRatePage() {
  const { t } = useTranslation('clicks');
  const { id, frame } = useSiteFrame('impression-rate');
  const state = useClicksParams();
  const list = useClicksList('sites/impression-rate', id, {
    from: state.from,
    to: state.to,
    tz: state.tz,
    page: state.page,
    limit: 20,
  });
  type Row = ImpressionRatePage['items'][number];
  const columns: Column<Row>[] = [
    {
      key: 'widget',
      header: t('columns.widget'),
      cell: (r) => <TwoLines top={r.widget_title} bottom={`#${r.widget_id}`} />,
    },
    { key: 'requests', header: t('columns.requests'), cell: (r) => formatNumber(r.requests), align: 'right' },
    { key: 'rendered', header: t('columns.rendered'), cell: (r) => formatNumber(r.rendered), align: 'right' },
    {
      key: 'impression_rate',
      header: t('columns.impression_rate'),
      cell: (r) => formatPercent(r.impression_rate),
      align: 'right',
    },
    {
      key: 'impressions',
      header: t('columns.ad_impressions'),
      cell: (r) => formatNumber(r.impressions),
      align: 'right',
    },
    { key: 'viewable', header: t('columns.viewable'), cell: (r) => formatNumber(r.viewable), align: 'right' },
    { key: 'rate', header: t('columns.rate'), cell: (r) => formatPercent(r.rate), align: 'right' },
  ];
  const any = (list.data?.items ?? []).some((w) => w.requests > 0 || w.impressions > 0);
  return (
    <ClicksListPage
      frame={frame}
      state={state}
      list={list}
      columns={columns}
      rowKey={(r) => r.widget_id}
      minWidth={760}
      filters={<ListFileButtons list={`sites/${encodeURIComponent(id)}/impression-rate`} state={state} />}
      rows={any ? (list.data?.items ?? []) : []}
      total={any ? list.data?.total : 0}
      limit={20}
    >
      <Text fz="xs" c="dimmed">
        {t('rate_note')}
      </Text>
      {list.data && any ? <RateChart data={list.data} t={t} /> : null}
    </ClicksListPage>
  );
}
