import {
  paged,
  site,
  socialGroup,
  type socialGroupInput,
  type socialGroupUpdate,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const groupsPage = paged(socialGroup);
const sitesPage = paged(withOwnerName(site));
const path = (id: string) => `/socialgroups/${encodeURIComponent(id)}`;

export type SocialGroupCreate = z.input<typeof socialGroupInput>;
export type SocialGroupUpdate = z.input<typeof socialGroupUpdate>;

export const siteSocialGroupsQuery = (siteId: string, page: number) =>
  queryOptions({
    queryKey: ['socialgroups', 'list', { site_id: siteId, page }],
    queryFn: () =>
      apiRequest('/socialgroups', { schema: groupsPage, query: { site_id: siteId, page, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
export const useSiteSocialGroups = (siteId: string, page: number) =>
  useQuery(siteSocialGroupsQuery(siteId, page));

export const socialGroupQuery = (id: string) =>
  queryOptions({
    queryKey: ['socialgroups', id],
    queryFn: () => apiRequest(path(id), { schema: socialGroup }),
  });
export const useSocialGroup = (id: string) => useQuery(socialGroupQuery(id));

export const socialSiteQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['sites', siteId],
    queryFn: () => apiRequest(`/sites/${encodeURIComponent(siteId)}`, { schema: site }),
    enabled: Boolean(siteId),
  });
export const useSocialSite = (siteId: string) => useQuery(socialSiteQuery(siteId));

export const socialSiteChoicesQuery = () =>
  queryOptions({
    queryKey: ['sites', 'list', { limit: 100 }],
    queryFn: () => apiRequest('/sites', { schema: sitesPage, query: { limit: 100 } }),
  });
export const useSocialSiteChoices = () => useQuery(socialSiteChoicesQuery());

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['socialgroups'] });
}

export function useCreateSocialGroup() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: SocialGroupCreate) =>
      apiRequest('/socialgroups', { method: 'POST', json: { socialgroup: input }, schema: socialGroup }),
    onSuccess: invalidate,
  });
}

export function useUpdateSocialGroup(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: SocialGroupUpdate) =>
      apiRequest(path(id), { method: 'PUT', json: { socialgroup: input }, schema: socialGroup }),
    onSuccess: invalidate,
  });
}

/** Its failure has its own message ('no rights to publish'), so the generic toast stays away. */
export function useCheckRights(id: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => apiRequest(`${path(id)}/check-rights`, { method: 'POST', schema: socialGroup }),
    onSuccess: invalidate,
    onError: invalidate,
    meta: { silent: true },
  });
}
