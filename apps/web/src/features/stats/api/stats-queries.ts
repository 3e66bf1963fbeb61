import { account } from '@adp/contract';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** What a statistics page names of its entity: the title, the owner and the parents. */
const head = z
  .object({
    _id: z.string(),
    title: z.string(),
    user_id: z.string(),
    campaign_id: z.string().nullish(),
    site_id: z.string().nullish(),
    domain: z.string().nullish(),
  })
  .loose();
export type EntityHead = z.infer<typeof head>;

export type HeadKind = 'campaigns' | 'banners' | 'sites' | 'widgets';

/** The campaign, creative, site or widget a statistics page is about (404: 'Data not found.'). */
export function useEntityHead(kind: HeadKind, id: string) {
  return useQuery({
    queryKey: [kind, id, 'head'],
    queryFn: () => apiRequest(`/${kind}/${encodeURIComponent(id)}`, { schema: head }),
    enabled: Boolean(id),
    meta: { silent: true },
  });
}

/** The user whose money the amounts are in (its currency), or whose statistics a page shows. */
export function useAccount(userId: string | undefined) {
  return useQuery({
    queryKey: ['users', userId],
    queryFn: () => apiRequest(`/users/${encodeURIComponent(userId ?? '')}`, { schema: account }),
    enabled: Boolean(userId),
    meta: { silent: true },
  });
}
