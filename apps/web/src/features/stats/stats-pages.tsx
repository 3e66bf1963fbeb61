import { platformCurrency, type StatsGroup, statsGroups } from '@adp/contract';
import { Alert, Button, Group, SegmentedControl, Skeleton, Stack, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams, useSearchParams } from 'react-router';
import { PageHeader } from '../../components/page-header.tsx';
import { treeCalls, treeGroups } from '../../components/stats/stats-api.ts';
import { keyLabels } from '../../components/stats/stats-names.tsx';
import { StatsScreen } from '../../components/stats/stats-screen.tsx';
import { useAppAbility, useAuth } from '../../lib/ability.tsx';
import { usePageTitle } from '../../lib/page-title.ts';
import { type EntityHead, type HeadKind, useAccount, useEntityHead } from './api/stats-queries.ts';

/** `city` once the API answers it (the rollups gain a city column in the same issue). */
const withCity = (groups: StatsGroup[]): StatsGroup[] => {
  const all = statsGroups as readonly string[];
  if (!all.includes('city')) return groups;
  const at = groups.indexOf('country');
  return at < 0 ? groups : [...groups.slice(0, at + 1), 'city' as StatsGroup, ...groups.slice(at + 1)];
};

const advertiserGroups = withCity([
  'day',
  'hour',
  'country',
  'device',
  'os',
  'browser',
  'site',
  'widget',
  'creative',
]);
const creativeGroups = withCity(['day', 'hour', 'country', 'device', 'os', 'browser', 'site', 'widget']);
const widgetGroups = withCity(['day', 'hour', 'country', 'device', 'os', 'browser']);
const platformGroups = withCity([
  'day',
  'hour',
  'country',
  'device',
  'os',
  'browser',
  'site',
  'widget',
  'creative',
]);

/** The range of the current screen, carried to the other statistics screens of the same entity. */
function useRangeQuery(): string {
  const [params] = useSearchParams();
  const keep = new URLSearchParams();
  for (const key of ['period', 'from', 'to']) {
    const value = params.get(key);
    if (value) keep.set(key, value);
  }
  const query = keep.toString();
  return query ? `?${query}` : '';
}

/** Links between the statistics screens of one entity; the current one is filled. */
function StatsLinks({ links }: { links: { to: string; label: string }[] }) {
  const { pathname } = useLocation();
  const range = useRangeQuery();
  return (
    <Group gap="xs" wrap="wrap" component="nav">
      {links.map((link) => {
        const current = pathname === link.to;
        return (
          <Button
            key={link.to}
            component={Link}
            to={`${link.to}${range}`}
            size="xs"
            variant={current ? 'filled' : 'default'}
            aria-current={current ? 'page' : undefined}
          >
            {link.label}
          </Button>
        );
      })}
    </Group>
  );
}

/** Loading, 'Data not found.' or the page of an entity's statistics. */
function WithEntity({
  kind,
  id,
  children,
}: {
  kind: HeadKind;
  id: string;
  children: (entity: EntityHead, currency: string) => ReactNode;
}) {
  const { t } = useTranslation('stats');
  const entity = useEntityHead(kind, id);
  if (entity.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (entity.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  // statistics are in the platform currency, whatever the owner's display currency
  return <>{children(entity.data, platformCurrency)}</>;
}

function StatsHeader({
  title,
  subtitle,
  back,
}: {
  title: string;
  subtitle?: ReactNode;
  back?: { to: string; label: string };
}) {
  usePageTitle(title);
  return <PageHeader title={title} subtitle={subtitle} back={back} />;
}

function campaignLinks(t: (key: string) => string, base: string, adstype?: unknown) {
  return [
    { to: `${base}/stats`, label: t('nav.over_time') },
    { to: `${base}/stats-sites`, label: t('nav.by_site') },
    { to: `${base}/rtb-stats`, label: t('nav.rtb') },
    ...(adstype === 'criteo' ? [{ to: `${base}/criteo`, label: t('nav.criteo') }] : []),
  ];
}

function creativeLinks(t: (key: string) => string, base: string) {
  return [
    { to: `${base}/stats`, label: t('nav.over_time') },
    { to: `${base}/v2`, label: t('nav.v2') },
    { to: `${base}/rtb-stats`, label: t('nav.rtb') },
  ];
}

/** /users/{userId}/campaigns/{id}/stats: the campaign over time and by every breakdown. */
export function CampaignStatsPage({ bySite = false }: { bySite?: boolean }) {
  const { t } = useTranslation('stats');
  const { id = '' } = useParams();
  const ability = useAppAbility();
  const adminView = ability.can('manage', 'ACL');
  return (
    <WithEntity kind="campaigns" id={id}>
      {(c, currency) => {
        const base = `/users/${c.user_id}/campaigns/${c._id}`;
        return (
          <Stack gap="md">
            <StatsHeader
              title={t(bySite ? 'pages.campaign_sites' : 'pages.campaign', { title: c.title })}
              subtitle={`#${c._id}`}
              back={{ to: base, label: c.title }}
            />
            <StatsLinks links={campaignLinks(t, base, c.adstype)} />
            <StatsScreen
              path={`/stats/campaigns/${c._id}`}
              groups={bySite ? ['site', 'widget'] : advertiserGroups}
              side="spent"
              currency={currency}
              keyLabel={keyLabels({ sites: adminView, campaignId: c._id })}
            />
          </Stack>
        );
      }}
    </WithEntity>
  );
}

/**
 * /users/{userId}/campaigns/{id}/criteo: a Criteo campaign's statistics by day (GET /api/criteo/stats); any
 * other campaign says where its statistics are.
 */
export function CampaignCriteoStatsPage() {
  const { t } = useTranslation('stats');
  const { id = '' } = useParams();
  return (
    <WithEntity kind="campaigns" id={id}>
      {(c, currency) => {
        const base = `/users/${c.user_id}/campaigns/${c._id}`;
        const criteo = c.adstype === 'criteo';
        return (
          <Stack gap="md">
            <StatsHeader
              title={t('pages.criteo', { title: c.title })}
              subtitle={criteo ? t('pages.criteo_text') : `#${c._id}`}
              back={{ to: base, label: c.title }}
            />
            <StatsLinks links={campaignLinks(t, base, c.adstype)} />
            {criteo ? (
              <StatsScreen
                path="/criteo/stats"
                overTime="day"
                groups={['day']}
                side="spent"
                currency={currency}
                extra={{ campaign_id: c._id }}
              />
            ) : (
              <Alert color="blue" role="status">
                <Stack gap="xs" align="flex-start">
                  <Text fz="sm">
                    {t('pages.criteo_not', {
                      type: t(`campaigns:adstypes.${String(c.adstype ?? 'default')}`),
                    })}
                  </Text>
                  <Button component={Link} to={`${base}/stats`} size="xs" variant="light">
                    {t('nav.over_time')}
                  </Button>
                </Stack>
              </Alert>
            )}
          </Stack>
        );
      }}
    </WithEntity>
  );
}

/** .../stats-sites: the campaign by site and widget. */
export function CampaignSitesStatsPage() {
  return <CampaignStatsPage bySite />;
}

/** /users/{userId}/campaigns/{id}/creatives/{bannerId}/stats and /v2 (the breakdowns side by side). */
export function BannerStatsPage({ v2 = false }: { v2?: boolean }) {
  const { t } = useTranslation('stats');
  const { bannerId = '' } = useParams();
  const ability = useAppAbility();
  return (
    <WithEntity kind="banners" id={bannerId}>
      {(b, currency) => {
        const base = `/users/${b.user_id}/campaigns/${b.campaign_id}/creatives/${b._id}`;
        return (
          <Stack gap="md">
            <StatsHeader
              title={t('pages.creative', { title: b.title })}
              subtitle={`#${b._id}`}
              back={{ to: base, label: b.title }}
            />
            <StatsLinks links={creativeLinks(t, base)} />
            {v2 ? (
              // the v2 screen reads the second stats tree (GET /api/stats2/banners/…?id=)
              <StatsScreen
                {...treeCalls('banners', b._id)}
                groups={treeGroups(true)}
                overTime="day"
                side="spent"
                currency={currency}
                keyLabel={keyLabels({ sites: ability.can('manage', 'ACL') })}
                layout="tabs"
              />
            ) : (
              <StatsScreen
                path={`/stats/banners/${b._id}`}
                groups={creativeGroups}
                side="spent"
                currency={currency}
                keyLabel={keyLabels({ sites: ability.can('manage', 'ACL') })}
              />
            )}
          </Stack>
        );
      }}
    </WithEntity>
  );
}

export function BannerStatsV2Page() {
  return <BannerStatsPage v2 />;
}

/**
 * What one RTB statistics route narrows to, and its call (GET /api/stats/{campaigns|banners}/:id/rtb…):
 * all partners by day, by source, one partner by day, one partner's source by day, one source by day.
 */
function useRtbScope(api: string): { label: string; path: string | null; bySource: boolean } {
  const { t } = useTranslation('stats');
  const { partnerId, sourceId } = useParams();
  const { pathname } = useLocation();
  const enc = encodeURIComponent;
  if (partnerId && sourceId)
    return {
      label: t('rtb.partner_source', { partner: partnerId, source: sourceId }),
      path: `${api}/rtb/partners/${enc(partnerId)}/sources/${enc(sourceId)}`,
      bySource: false,
    };
  if (partnerId)
    return {
      label: t('rtb.partner', { partner: partnerId }),
      path: `${api}/rtb/partners/${enc(partnerId)}`,
      bySource: false,
    };
  if (sourceId)
    return {
      label: t('rtb.source', { source: sourceId }),
      path: `${api}/rtb/sources/${enc(sourceId)}`,
      bySource: false,
    };
  if (pathname.endsWith('/sources'))
    return { label: t('rtb.sources'), path: `${api}/rtb/sources`, bySource: true };
  return { label: t('rtb.all'), path: `${api}/rtb`, bySource: false };
}

/**
 * The RTB statistics of a campaign or creative (rtb-stats, sources, partner, partner's source), by day
 * or by source; until the exchange records RTB traffic every range says 'No stats for the chosen period'.
 */
export function RtbStatsPage({ kind }: { kind: 'campaigns' | 'banners' }) {
  const { t } = useTranslation('stats');
  const { id = '', bannerId = '' } = useParams();
  const entityId = kind === 'banners' ? bannerId : id;
  const api = `/stats/${kind}/${encodeURIComponent(entityId)}`;
  const scope = useRtbScope(api);
  return (
    <WithEntity kind={kind} id={entityId}>
      {(e, currency) => {
        const base =
          kind === 'banners'
            ? `/users/${e.user_id}/campaigns/${e.campaign_id}/creatives/${e._id}`
            : `/users/${e.user_id}/campaigns/${e._id}`;
        return (
          <Stack gap="md">
            <StatsHeader
              title={t('pages.rtb', { title: e.title })}
              subtitle={scope.label}
              back={{ to: base, label: e.title }}
            />
            <StatsLinks
              links={[
                ...(kind === 'banners' ? creativeLinks(t, base) : campaignLinks(t, base, e.adstype)),
                { to: `${base}/rtb-stats/sources`, label: t('nav.rtb_sources') },
              ]}
            />
            <StatsScreen
              path={scope.path}
              chartPath={scope.bySource ? `${api}/rtb` : scope.path}
              overTime="day"
              groups={scope.bySource ? ['site'] : ['day']}
              side="spent"
              currency={currency}
              extra={{ limit: '500' }}
            />
          </Stack>
        );
      }}
    </WithEntity>
  );
}

export const CampaignRtbStatsPage = () => <RtbStatsPage kind="campaigns" />;
export const BannerRtbStatsPage = () => <RtbStatsPage kind="banners" />;

/** /widgets/{widgetId}/stats and /v2/stats (also under /sites/{siteId}/widgets/…): a widget's earnings. */
export function WidgetStatsPage({ v2 = false }: { v2?: boolean }) {
  const { t } = useTranslation('stats');
  const { widgetId = '' } = useParams();
  return (
    <WithEntity kind="widgets" id={widgetId}>
      {(w, currency) => (
        <Stack gap="md">
          <StatsHeader
            title={t('pages.widget', { title: w.title })}
            subtitle={`#${w._id}`}
            back={{ to: `/widgets/${w._id}`, label: w.title }}
          />
          <StatsLinks
            links={[
              { to: `/widgets/${w._id}/stats`, label: t('nav.over_time') },
              { to: `/widgets/${w._id}/v2/stats`, label: t('nav.v2') },
            ]}
          />
          <StatsScreen
            path={`/stats/widgets/${w._id}`}
            groups={widgetGroups}
            side="earned"
            currency={currency}
            layout={v2 ? 'tabs' : 'table'}
          />
        </Stack>
      )}
    </WithEntity>
  );
}

export const WidgetStatsV2Page = () => <WidgetStatsPage v2 />;

/** /users/{userId}/stats: everything a user advertises (spend) or publishes (earnings). */
export function UserStatsPage() {
  const { t } = useTranslation('stats');
  const auth = useAuth();
  const { userId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const user = useAccount(userId);
  const ability = useAppAbility();
  if (user.isPending) return <Skeleton height={480} radius="md" aria-busy="true" />;
  if (user.isError)
    return (
      <Alert color="red" title={t('errors:error_title')} role="alert">
        {t('errors:not_found')}
      </Alert>
    );
  const u = user.data;
  const fallback = (u.owns.sites ?? 0) > 0 && !(u.owns.campaigns ?? 0) ? 'publisher' : 'advertiser';
  const as =
    params.get('as') === 'publisher' || params.get('as') === 'advertiser' ? params.get('as') : fallback;
  const publisher = as === 'publisher';
  return (
    <Stack gap="md">
      <StatsHeader
        title={u._id === auth.userId ? t('pages.my_title') : t('pages.user', { name: u.name })}
        subtitle={u.email}
        back={{ to: `/users/${u._id}`, label: u.name }}
      />
      <Group>
        <SegmentedControl
          value={as ?? 'advertiser'}
          onChange={(value) =>
            setParams(
              (current) => {
                const next = new URLSearchParams(current);
                next.set('as', value);
                // the breakdowns differ: each side starts with its default
                for (const key of ['group', 'sort', 'order']) next.delete(key);
                return next;
              },
              { replace: true },
            )
          }
          data={[
            { value: 'advertiser', label: t('user.advertiser') },
            { value: 'publisher', label: t('user.publisher') },
          ]}
          aria-label={t('user.side')}
        />
      </Group>
      <StatsScreen
        key={as}
        path={`/stats/users/${u._id}`}
        extra={{ as: as ?? 'advertiser' }}
        groups={
          publisher
            ? withCity(['day', 'hour', 'country', 'device', 'os', 'browser', 'site', 'widget'])
            : advertiserGroups
        }
        side={publisher ? 'earned' : 'spent'}
        currency={platformCurrency}
        keyLabel={keyLabels({ sites: publisher || ability.can('manage', 'ACL') })}
      />
    </Stack>
  );
}

/** /statistics (admin): the whole platform, spend and earnings. */
export function PlatformStatsPage() {
  const { t } = useTranslation('stats');
  return (
    <Stack gap="md">
      <StatsHeader title={t('pages.platform')} />
      <Text c="dimmed" fz="sm">
        {t('pages.platform_text')}
      </Text>
      <StatsScreen
        path="/stats/platform"
        groups={platformGroups}
        side="both"
        currency="USD"
        keyLabel={keyLabels({ sites: true })}
      />
    </Stack>
  );
}
