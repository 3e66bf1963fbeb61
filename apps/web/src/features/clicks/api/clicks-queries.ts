import {
  campaign,
  clickSourcesPage,
  clicksPage,
  geoClicksPage,
  impressionRatePage,
  impressionsPage,
  pixelClicksPage,
  platformCurrency,
  postbackPage,
  site,
  topArticlesPage,
  widget,
} from '@adp/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** What a click screen asks for: the range (days of `tz`), the page, and its own filters. */
export type ListParams = Record<string, string | number | undefined>;

/** Every click list and aggregate of GET /api/{campaigns|sites|widgets}/:id/<list>, by its answer schema. */
export const lists = {
  'campaigns/clicks': clicksPage,
  'campaigns/postback': postbackPage,
  'campaigns/pixelclicks': pixelClicksPage,
  'campaigns/impressions': impressionsPage,
  'campaigns/geoclicks': geoClicksPage,
  'sites/clicks': clicksPage,
  'sites/geoclicks': geoClicksPage,
  'sites/click-sources': clickSourcesPage,
  'sites/impression-rate': impressionRatePage,
  'sites/toparticles': topArticlesPage,
  'widgets/clicks': clicksPage,
} as const;
export type ListName = keyof typeof lists;

/** One page of a list; the previous page stays on screen while the next loads. */
export function useClicksList<N extends ListName>(name: N, id: string, params: ListParams) {
  const [entity, list] = name.split('/') as [string, string];
  return useQuery({
    queryKey: ['clicks', name, id, params],
    queryFn: () =>
      apiRequest(`/${entity}/${encodeURIComponent(id)}/${list}`, {
        schema: lists[name] as unknown as z.ZodType<z.infer<(typeof lists)[N]>>,
        query: params,
      }),
    placeholderData: keepPreviousData,
  });
}

const entities = { campaigns: campaign, sites: site, widgets: widget } as const;

/** The campaign, site or widget a screen is about (its title and owner), and the owner's currency. */
export function useSubject<E extends keyof typeof entities>(entity: E, id: string) {
  const subject = useQuery({
    queryKey: ['clicks', 'subject', entity, id],
    queryFn: () =>
      apiRequest(`/${entity}/${encodeURIComponent(id)}`, {
        schema: entities[entity] as unknown as z.ZodType<z.infer<(typeof entities)[E]>>,
      }),
  });
  const _ownerId = subject.data?.user_id ?? '';
  // click prices and earnings are in the platform currency, whatever the owner's display currency
  return { subject, currency: platformCurrency };
}
