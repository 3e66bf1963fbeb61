import { platformCurrency, type Site } from '@adp/contract';
import { subject } from '@adp/permissions';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Image,
  Pagination,
  SimpleGrid,
  Skeleton,
  Stack,
  Table,
  Tabs,
  Text,
  Title,
} from '@mantine/core';
import {
  IconBrandFacebook,
  IconChartLine,
  IconEdit,
  IconLayoutGrid,
  IconPlus,
  IconRefresh,
  IconSpeakerphone,
  IconTrash,
} from '@tabler/icons-react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams, useSearchParams } from 'react-router';
import { ClicksLinks } from '../../components/clicks-links.tsx';
import { ConfirmDialog } from '../../components/confirm-dialog.tsx';
import { useOwnerListTitle } from '../../components/owner.tsx';
import { PageHeader } from '../../components/page-header.tsx';
import { RevenueTermsHistory } from '../../components/revenue-terms-history.tsx';
import { StatsHiddenNotice, useSiteStatsAccess } from '../../components/site-stats-access.tsx';
import { treeCalls, treeGroups } from '../../components/stats/stats-api.ts';
import { keyLabels } from '../../components/stats/stats-names.tsx';
import { StatsScreen } from '../../components/stats/stats-screen.tsx';
import { StatsPanel } from '../../components/stats-panel.tsx';
import { useAppAbility } from '../../lib/ability.tsx';
import { formatDateTime, formatMoney } from '../../lib/format.ts';
import { currentLocale } from '../../lib/i18n.ts';
import { languageOptions } from '../../lib/languages.ts';
import { notifyErrorMessage, notifySuccess } from '../../lib/notify.ts';
import { usePageTitle } from '../../lib/page-title.ts';
import {
  useClearMaterials,
  useParseNow,
  useSite,
  useSiteMaterials,
  useSiteWidgets,
} from './api/sites-queries.ts';
import { AdsTxtCard } from './components/ads-txt-card.tsx';
import { SiteAdsenseCard } from './components/site-adsense-card.tsx';
import { ModerationBadge, SiteStatusBadge } from './components/site-badges.tsx';
import { countryOptions } from './components/site-options.ts';

/** Shown when a material's image cannot be loaded. */
const IMAGE_FALLBACK =
  'data:image/svg+xml;utf8,<svg xmlns="http://www.w3.org/2000/svg" width="56" height="40"><rect width="56" height="40" fill="%23dee2e6"/></svg>';

const sr = { position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' } as const;

function useCanWrite(site: Site | undefined) {
  const ability = useAppAbility();
  return Boolean(site && ability.can('update', subject('Site', { ...site })));
}

function Item({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text c="dimmed" fz="xs" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text fz="sm" style={{ overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </div>
  );
}

function SettingsSummary({ site }: { site: Site }) {
  const { t } = useTranslation('sites');
  const locale = currentLocale();
  const country = site.country ? countryOptions(locale).find((o) => o.value === site.country)?.label : null;
  const language = site.language
    ? languageOptions(locale).find((o) => o.value === site.language)?.label
    : null;
  const flags = (
    [
      'use_noindex',
      'mark_traffic',
      'advanced_stats',
      'stats_visible',
      'stats_on_scroll',
      'strict_items_amount',
      'is_infinite',
    ] as const
  ).filter((flag) => site[flag]);
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('overview.settings')}>
      <Stack gap="md">
        <Title order={2} fz="lg">
          {t('overview.settings')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2, md: 3 }}>
          <Item label={t('fields:category')}>{t(`categories.${site.category}`)}</Item>
          <Item label={t('fields:status')}>
            <SiteStatusBadge status={site.status} />
          </Item>
          <Item label={t('fields:country')}>{country ?? '—'}</Item>
          <Item label={t('fields:language')}>{language ?? '—'}</Item>
          <Item label={t('fields:timezone')}>{site.timezone}</Item>
          <Item label={t('fields:payment_method')}>
            {site.payment_method === 'cpm'
              ? `${t('payment_methods.cpm')} · ${formatMoney(site.cpm_rate, 'USD')}`
              : t(`payment_methods.${site.payment_method}`)}
          </Item>
          <Item label={t('fields:materials_lifetime')}>
            {t('overview.days', { count: site.materials_lifetime })}
          </Item>
          <Item label={t('fields:rss_url')}>{site.parser.rss_url ?? site.parser.html_selector ?? '—'}</Item>
          <Item label={t('fields:tags')}>{site.tags.length ? site.tags.join(', ') : '—'}</Item>
        </SimpleGrid>
        {flags.length ? (
          <Group gap={6}>
            {flags.map((flag) => (
              <Badge key={flag} variant="outline" size="sm">
                {t(`fields:${flag}`)}
              </Badge>
            ))}
          </Group>
        ) : null}
      </Stack>
    </Card>
  );
}

function ModerationState({ site }: { site: Site }) {
  const { t } = useTranslation('sites');
  if (site.moderation === 'approved') return null;
  return (
    <Alert
      color={site.moderation === 'rejected' ? 'red' : 'yellow'}
      title={t(`overview.moderation_${site.moderation}`)}
      role="status"
    >
      {site.moderation === 'rejected'
        ? t('overview.rejected_reason', { reason: site.moderation_reason ?? '—' })
        : t('overview.pending_text')}
    </Alert>
  );
}

function SiteWidgets({ site, canWrite }: { site: Site; canWrite: boolean }) {
  const { t } = useTranslation('sites');
  const widgets = useSiteWidgets(site._id);
  const items = widgets.data?.items ?? [];
  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('overview.widgets')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('overview.widgets')}
          </Title>
          <Group gap="xs">
            <Button component={Link} to={`/sites/${site._id}/widgets`} variant="subtle" size="xs">
              {t('overview.all_widgets')}
            </Button>
            {canWrite ? (
              <Button
                component={Link}
                to={`/sites/${site._id}/widgets/create`}
                size="xs"
                leftSection={<IconPlus size={14} aria-hidden />}
              >
                {t('overview.new_widget')}
              </Button>
            ) : null}
          </Group>
        </Group>
        {widgets.isPending ? <Skeleton height={40} /> : null}
        {!widgets.isPending && items.length === 0 ? <Text c="dimmed">{t('overview.no_widgets')}</Text> : null}
        {items.map((w) => (
          <Group key={w._id} justify="space-between" gap="xs">
            <Anchor
              component={Link}
              to={`/widgets/${w._id}`}
              fw={600}
              style={{ minWidth: 0, overflowWrap: 'anywhere' }}
            >
              {w.title}
            </Anchor>
            <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
              <Badge variant="outline" size="sm">
                {t(`widget_types.${w.settings.type}`)}
              </Badge>
              <ModerationBadge moderation={w.moderation} />
            </Group>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

function SiteMaterials({ site, canWrite }: { site: Site; canWrite: boolean }) {
  const { t } = useTranslation('sites');
  const [page, setPage] = useState(1);
  const [confirming, setConfirming] = useState(false);
  const materials = useSiteMaterials(site._id, page);
  const parse = useParseNow(site._id);
  const clear = useClearMaterials(site._id);
  const total = materials.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / 10));

  const parseNow = async () => {
    const result = await parse.mutateAsync();
    notifySuccess(t('materials.parsed', { stored: result.stored, skipped: result.skipped.length }));
  };
  const clearAll = async () => {
    try {
      await clear.mutateAsync();
      notifySuccess(t('errors:materials_deleted'));
    } catch {
      notifyErrorMessage(t('errors:materials_clear_failed'));
    } finally {
      setConfirming(false);
      setPage(1);
    }
  };

  return (
    <Card padding="lg" radius="md" component="section" aria-label={t('materials.title')}>
      <Stack gap="sm">
        <Group justify="space-between">
          <Title order={2} fz="lg">
            {t('materials.title')}
          </Title>
          {canWrite ? (
            <Group gap="xs">
              <Button
                size="xs"
                variant="light"
                leftSection={<IconRefresh size={14} aria-hidden />}
                onClick={parseNow}
                loading={parse.isPending}
              >
                {t('materials.parse_now')}
              </Button>
              <Button
                size="xs"
                variant="light"
                color="red"
                leftSection={<IconTrash size={14} aria-hidden />}
                onClick={() => setConfirming(true)}
                disabled={total === 0}
              >
                {t('materials.clear')}
              </Button>
            </Group>
          ) : null}
        </Group>
        {materials.isPending ? <Skeleton height={80} /> : null}
        {!materials.isPending && total === 0 ? <Text c="dimmed">{t('materials.empty')}</Text> : null}
        {total > 0 ? (
          <Table.ScrollContainer minWidth={520}>
            <Table verticalSpacing="xs">
              <caption style={sr}>{t('materials.title')}</caption>
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>{t('fields:image')}</Table.Th>
                  <Table.Th>{t('fields:title')}</Table.Th>
                  <Table.Th>{t('materials.published')}</Table.Th>
                  <Table.Th>{t('materials.expires')}</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {materials.data?.items.map((m) => (
                  <Table.Tr key={m._id}>
                    <Table.Td w={72}>
                      {m.image ? (
                        <Image
                          src={m.image}
                          alt=""
                          w={56}
                          h={40}
                          radius="sm"
                          fit="cover"
                          fallbackSrc={IMAGE_FALLBACK}
                        />
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Anchor href={m.url} target="_blank" rel="noreferrer" fz="sm" fw={600}>
                        {m.title}
                      </Anchor>
                    </Table.Td>
                    <Table.Td fz="sm">{formatDateTime(m.published_at)}</Table.Td>
                    <Table.Td fz="sm">{formatDateTime(m.expires_at)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        ) : null}
        {pages > 1 ? (
          <Group justify="flex-end">
            <Pagination
              value={page}
              total={pages}
              onChange={setPage}
              size="sm"
              getControlProps={(control) => ({ 'aria-label': t(`pagination.${control}`) })}
            />
          </Group>
        ) : null}
      </Stack>
      <ConfirmDialog
        opened={confirming}
        title={t('materials.clear')}
        message={t('materials.clear_confirm')}
        confirmLabel={t('materials.clear')}
        onConfirm={clearAll}
        onClose={() => setConfirming(false)}
        loading={clear.isPending}
      />
    </Card>
  );
}

function SiteHeader({ site, canWrite }: { site: Site; canWrite: boolean }) {
  const { t } = useTranslation('sites');
  const listTitle = useOwnerListTitle(t, site.user_id);
  const hidden = useSiteStatsAccess(site) === 'hidden';
  usePageTitle(t('document_title', { title: site.title }));
  return (
    <PageHeader
      title={site.title}
      subtitle={
        <Group gap="xs" component="span">
          <span>{site.domain}</span>
          <ModerationBadge moderation={site.moderation} />
        </Group>
      }
      back={{ to: `/users/${site.user_id}/sites`, label: listTitle }}
      actions={
        <>
          {hidden ? null : (
            <Button
              component={Link}
              to={`/sites/v2/${site._id}`}
              variant="default"
              leftSection={<IconChartLine size={16} aria-hidden />}
            >
              {t('stats:open')}
            </Button>
          )}
          <Button
            component={Link}
            to={`/sites/${site._id}/widgets`}
            variant="default"
            leftSection={<IconLayoutGrid size={16} aria-hidden />}
          >
            {t('overview.widgets')}
          </Button>
          <Button
            component={Link}
            to={`/sites/${site._id}/promotions`}
            variant="default"
            leftSection={<IconSpeakerphone size={16} aria-hidden />}
          >
            {t('overview.promotions')}
          </Button>
          <Button
            component={Link}
            to={`/sites/${site._id}/social`}
            variant="default"
            leftSection={<IconBrandFacebook size={16} aria-hidden />}
          >
            {t('overview.social')}
          </Button>
          {canWrite ? (
            <Button
              component={Link}
              to={`/sites/${site._id}/edit`}
              leftSection={<IconEdit size={16} aria-hidden />}
            >
              {t('overview.edit')}
            </Button>
          ) : null}
        </>
      }
    />
  );
}

function useSiteOrState() {
  const { t } = useTranslation('sites');
  const { siteId = '' } = useParams();
  const site = useSite(siteId);
  if (site.isPending) return { state: <Skeleton height={320} radius="md" aria-busy="true" /> };
  if (site.isError)
    return {
      state: (
        <Alert color="red" title={t('errors:error_title')} role="alert">
          {t('errors:not_found')}
        </Alert>
      ),
    };
  return { site: site.data };
}

/** /sites/{siteId}: settings summary, moderation state, widgets and materials one under another. */
export function SitePage() {
  const { site, state } = useSiteOrState();
  const canWrite = useCanWrite(site);
  const access = useSiteStatsAccess(site);
  if (!site) return state;
  return (
    <Stack gap="md">
      <SiteHeader site={site} canWrite={canWrite} />
      <ModerationState site={site} />
      <SettingsSummary site={site} />
      <AdsTxtCard site={site} />
      {access === 'hidden' ? <StatsHiddenNotice /> : <StatsPanel entity="sites" id={site._id} />}
      <SiteAdsenseCard site={site} />
      {access === 'hidden' ? null : (
        <ClicksLinks kind="site" base={`/sites/${site._id}`} advanced={access === 'advanced'} />
      )}
      <SiteWidgets site={site} canWrite={canWrite} />
      <SiteMaterials site={site} canWrite={canWrite} />
      <RevenueTermsHistory entity="site" entityId={site._id} />
    </Stack>
  );
}

/**
 * The site's statistics on /sites/v2: the second stats tree (GET /api/stats2/sites/…?id=) over time and
 * its breakdowns side by side, and by widget (the tree has none: GET /api/stats/sites/:id?group=widget),
 * in the owner's currency.
 */
function SiteStats({ site }: { site: Site }) {
  const tree = treeCalls('sites', site._id);
  return (
    <StatsScreen
      {...tree}
      pathOf={(group) => (group === 'widget' ? `/stats/sites/${site._id}` : tree.pathOf(group))}
      groups={['day', 'widget', ...treeGroups(false).slice(1)]}
      overTime="day"
      side="earned"
      currency={platformCurrency}
      keyLabel={keyLabels({ siteId: site._id })}
      layout="tabs"
    />
  );
}
const v2Tabs = ['stats', 'settings', 'widgets', 'materials'];

/** /sites/v2/{siteId}: the site's statistics overview, then the same overview as /sites/{siteId} in tabs. */
export function SiteV2Page() {
  const { t } = useTranslation('sites');
  const { site, state } = useSiteOrState();
  const canWrite = useCanWrite(site);
  const [params, setParams] = useSearchParams();
  const tab = v2Tabs.includes(params.get('tab') ?? '') ? (params.get('tab') as string) : 'stats';
  if (!site) return state;
  return (
    <Stack gap="md">
      <SiteHeader site={site} canWrite={canWrite} />
      <ModerationState site={site} />
      <Tabs
        value={tab}
        onChange={(value) => setParams(value && value !== 'stats' ? { tab: value } : {}, { replace: true })}
        keepMounted={false}
      >
        <Tabs.List>
          <Tabs.Tab value="stats">{t('stats:title')}</Tabs.Tab>
          <Tabs.Tab value="settings">{t('overview.settings')}</Tabs.Tab>
          <Tabs.Tab value="widgets">{t('overview.widgets')}</Tabs.Tab>
          <Tabs.Tab value="materials">{t('materials.title')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="stats" pt="md">
          <SiteStats site={site} />
        </Tabs.Panel>
        <Tabs.Panel value="settings" pt="md">
          <Stack gap="md">
            <SettingsSummary site={site} />
            <StatsPanel entity="sites" id={site._id} tree />
            <RevenueTermsHistory entity="site" entityId={site._id} />
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="widgets" pt="md">
          <SiteWidgets site={site} canWrite={canWrite} />
        </Tabs.Panel>
        <Tabs.Panel value="materials" pt="md">
          <SiteMaterials site={site} canWrite={canWrite} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
