import {
  paged,
  promotion,
  type promotionInput,
  promotionPage,
  type promotionPageInput,
  type promotionPageUpdate,
  type promotionUpdate,
  site,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const promotionsPage = paged(promotion);
const pagesPage = paged(promotionPage);
const sitesPage = paged(withOwnerName(site));
const promotionPath = (id: string) => `/promotions/${encodeURIComponent(id)}`;
const pagePath = (id: string) => `/promotionpages/${encodeURIComponent(id)}`;

export type PromotionCreate = z.input<typeof promotionInput>;
export type PromotionUpdate = z.input<typeof promotionUpdate>;
export type PromotionPageCreate = z.input<typeof promotionPageInput>;
export type PromotionPageUpdate = z.input<typeof promotionPageUpdate>;

export const sitePromotionsQuery = (siteId: string, page: number) =>
  queryOptions({
    queryKey: ['promotions', 'list', { site_id: siteId, page }],
    queryFn: () =>
      apiRequest('/promotions', { schema: promotionsPage, query: { site_id: siteId, page, limit: 20 } }),
    placeholderData: keepPreviousData,
  });
export const useSitePromotions = (siteId: string, page: number) =>
  useQuery(sitePromotionsQuery(siteId, page));

export const promotionQuery = (id: string) =>
  queryOptions({
    queryKey: ['promotions', id],
    queryFn: () => apiRequest(promotionPath(id), { schema: promotion }),
    enabled: Boolean(id),
  });
export const usePromotion = (id: string) => useQuery(promotionQuery(id));

export const promotionSiteQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['sites', siteId],
    queryFn: () => apiRequest(`/sites/${encodeURIComponent(siteId)}`, { schema: site }),
    enabled: Boolean(siteId),
  });
export const usePromotionSite = (siteId: string) => useQuery(promotionSiteQuery(siteId));

/** Sites a new promotion may belong to, found by title or domain, when the page was opened without one. */
export const promotionSiteChoicesQuery = (search: string) =>
  queryOptions({
    queryKey: ['sites', 'list', { search, limit: 50 }],
    queryFn: () =>
      apiRequest('/sites', { schema: sitesPage, query: { limit: 50, ...(search ? { search } : {}) } }),
    placeholderData: keepPreviousData,
  });
export const usePromotionSiteChoices = (search: string, enabled: boolean) =>
  useQuery({ ...promotionSiteChoicesQuery(search), enabled });

export const promotionPagesQuery = (promotionId: string, page: number) =>
  queryOptions({
    queryKey: ['promotionpages', 'list', { promotion_id: promotionId, page }],
    queryFn: () =>
      apiRequest('/promotionpages', {
        schema: pagesPage,
        query: { promotion_id: promotionId, page, limit: 20 },
      }),
    placeholderData: keepPreviousData,
  });
export const usePromotionPages = (promotionId: string, page: number) =>
  useQuery(promotionPagesQuery(promotionId, page));

export const promotionPageQuery = (id: string) =>
  queryOptions({
    queryKey: ['promotionpages', id],
    queryFn: () => apiRequest(pagePath(id), { schema: promotionPage }),
  });
export const usePromotionPage = (id: string) => useQuery(promotionPageQuery(id));

function useInvalidate(key: string) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: [key] });
}

export function useCreatePromotion() {
  const invalidate = useInvalidate('promotions');
  return useMutation({
    mutationFn: (input: PromotionCreate) =>
      apiRequest('/promotions', { method: 'POST', json: { promotion: input }, schema: promotion }),
    onSuccess: invalidate,
  });
}

export function useUpdatePromotion(id: string) {
  const invalidate = useInvalidate('promotions');
  return useMutation({
    mutationFn: (input: PromotionUpdate) =>
      apiRequest(promotionPath(id), { method: 'PUT', json: { promotion: input }, schema: promotion }),
    onSuccess: invalidate,
  });
}

export function useCreatePromotionPage() {
  const invalidate = useInvalidate('promotionpages');
  return useMutation({
    mutationFn: (input: PromotionPageCreate) =>
      apiRequest('/promotionpages', {
        method: 'POST',
        json: { promotionpage: input },
        schema: promotionPage,
      }),
    onSuccess: invalidate,
  });
}

export function useUpdatePromotionPage(id: string) {
  const invalidate = useInvalidate('promotionpages');
  return useMutation({
    mutationFn: (input: PromotionPageUpdate) =>
      apiRequest(pagePath(id), { method: 'PUT', json: { promotionpage: input }, schema: promotionPage }),
    onSuccess: invalidate,
  });
}

/** Multipart upload (field `file`, `?type=promotion`), through the client's bearer and refresh. */
export function uploadPromotionImage(id: string, file: File) {
  const body = new FormData();
  body.append('file', file);
  return apiRequest(`${pagePath(id)}/image`, {
    method: 'POST',
    multipart: body,
    query: { type: 'promotion' },
    schema: promotionPage,
  });
}

export function useUploadPromotionImage(id: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadPromotionImage(id, file),
    // the answer is the page with its new image: show it at once, then refresh the lists
    onSuccess: (page) => {
      queryClient.setQueryData(promotionPageQuery(id).queryKey, page);
      return queryClient.invalidateQueries({ queryKey: ['promotionpages', 'list'] });
    },
  });
}
