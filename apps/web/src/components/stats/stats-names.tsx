import type { StatsGroup } from '@adp/contract';
import { Anchor } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { z } from 'zod';
import { apiRequest } from '../../lib/api-client.ts';
import { useNames } from '../../lib/name-cache.ts';
import type { KeyLabel } from './stats-screen.tsx';

/** Only what a name needs of a list page: a full widget or creative carries much more. */
const namedItems = <T extends z.ZodRawShape>(shape: T) =>
  z.object({ items: z.array(z.object({ _id: z.string(), title: z.string(), ...shape })) });
const widgetsPage = namedItems({});
const bannersPage = namedItems({ user_id: z.string() });

function Named({ name, to, id }: { name: string | undefined; to: string | undefined; id: string }) {
  const text = name ?? `#${id}`;
  return to ? (
    <Anchor component={Link} to={to} fz="sm" fw={500}>
      {text}
    </Anchor>
  ) : (
    text
  );
}

/** A site's name from the dashboard's name cache (one batched lookup for all the rows), linked. */
function SiteName({ id }: { id: string }) {
  const names = useNames('sites', [id]);
  const name = names.get(id)?.name;
  return <Named id={id} name={name} to={name ? `/sites/${id}` : undefined} />;
}

/** A widget of `siteId`, named from the site's widget list (one call for all the rows). */
function WidgetName({ id, siteId }: { id: string; siteId: string }) {
  const list = useQuery({
    queryKey: ['widgets', 'list', { site_id: siteId, limit: 500 }],
    queryFn: () => apiRequest('/widgets', { schema: widgetsPage, query: { site_id: siteId, limit: 500 } }),
    meta: { silent: true },
    staleTime: 3_600_000,
  });
  const found = list.data?.items.find((w) => w._id === id);
  return <Named id={id} name={found?.title} to={found ? `/widgets/${id}` : undefined} />;
}

/** A creative of `campaignId`, named from the campaign's creative list, linked to its page. */
function CreativeName({ id, campaignId }: { id: string; campaignId: string }) {
  const list = useQuery({
    queryKey: ['banners', 'list', { campaign_id: campaignId, limit: 500 }],
    queryFn: () =>
      apiRequest('/banners', { schema: bannersPage, query: { campaign_id: campaignId, limit: 500 } }),
    meta: { silent: true },
    staleTime: 3_600_000,
  });
  const found = list.data?.items.find((b) => b._id === id);
  return (
    <Named
      id={id}
      name={found?.title}
      to={found ? `/users/${found.user_id}/campaigns/${campaignId}/creatives/${id}` : undefined}
    />
  );
}

/**
 * Names of the id keys a viewer may read: sites through the name cache (`sites`: only where the viewer
 * may read them all, e.g. a publisher's own or an admin; an advertiser sees the ids), the widgets of one
 * site, the creatives of one campaign.
 */
export function keyLabels(opts: { sites?: boolean; siteId?: string; campaignId?: string }): KeyLabel {
  return (group: StatsGroup, key: string) => {
    if (group === 'site' && opts.sites) return <SiteName id={key} />;
    if (group === 'widget' && opts.siteId) return <WidgetName id={key} siteId={opts.siteId} />;
    if (group === 'creative' && opts.campaignId)
      return <CreativeName id={key} campaignId={opts.campaignId} />;
    return undefined;
  };
}
