import {
  banner,
  type bannerInput,
  type bannerUpdate,
  ipImportResult,
  paged,
  pixel,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

/** List rows carry their owner's name (`user_name`). */
const bannerRow = withOwnerName(banner);
export type BannerRow = z.infer<typeof bannerRow>;
const bannersPage = paged(bannerRow);
const pixelsPage = paged(withOwnerName(pixel));
const countryName = z.object({ code: z.string(), name: z.string() });
const cityName = z.object({ id: z.int(), name: z.string(), country: z.string(), population: z.int() });
export type City = z.infer<typeof cityName>;
const campaignHead = z.object({ _id: z.string(), title: z.string(), user_id: z.string() }).loose();

const path = (bannerId: string) => `/banners/${encodeURIComponent(bannerId)}`;

export type BannerCreate = z.input<typeof bannerInput>;
export type BannerUpdate = z.input<typeof bannerUpdate>;

export const bannersListQuery = (campaignId: string, page: number, limit = 20) =>
  queryOptions({
    queryKey: ['banners', 'list', { campaign_id: campaignId, page, limit }],
    queryFn: () =>
      apiRequest('/banners', { schema: bannersPage, query: { campaign_id: campaignId, page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useBannersList = (campaignId: string, page: number) =>
  useQuery(bannersListQuery(campaignId, page));

export const bannerQuery = (bannerId: string) =>
  queryOptions({
    queryKey: ['banners', bannerId],
    queryFn: () => apiRequest(path(bannerId), { schema: banner }),
  });
export const useBanner = (bannerId: string) => useQuery(bannerQuery(bannerId));

/** The campaign a creative belongs to, for titles and back links. */
export const campaignHeadQuery = (campaignId: string) =>
  queryOptions({
    queryKey: ['campaigns', campaignId],
    queryFn: () => apiRequest(`/campaigns/${encodeURIComponent(campaignId)}`, { schema: campaignHead }),
    enabled: Boolean(campaignId),
  });

/** The owner's pixels, for remarketing targeting. */
export const userPixelsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['pixels', 'list', { user_id: userId, limit: 500 }],
    queryFn: () => apiRequest('/pixels', { schema: pixelsPage, query: { user_id: userId, limit: 500 } }),
    enabled: Boolean(userId),
    meta: { silent: true },
  });

export const countriesQuery = (lang: string) =>
  queryOptions({
    queryKey: ['geo', 'countries', lang],
    queryFn: () => apiRequest('/geo/countries', { schema: z.array(countryName), query: { lang } }),
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silent: true },
  });

export const citySearchQuery = (q: string, country?: string) =>
  queryOptions({
    queryKey: ['geo', 'cities', { q, country }],
    queryFn: () => apiRequest('/geo/cities', { schema: z.array(cityName), query: { q, country } }),
    enabled: q.trim().length >= 2,
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });

export const citiesByIdQuery = (ids: number[]) =>
  queryOptions({
    queryKey: ['geo', 'cities', { ids }],
    queryFn: () => apiRequest('/geo/cities', { schema: z.array(cityName), query: { ids: ids.join(',') } }),
    enabled: ids.length > 0,
    staleTime: Number.POSITIVE_INFINITY,
    meta: { silent: true },
  });

function useInvalidateBanners() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: ['banners'] });
    void queryClient.invalidateQueries({ queryKey: ['campaigns'] });
  };
}

export function useCreateBanner() {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: (input: BannerCreate) =>
      apiRequest('/banners', { method: 'POST', json: { banner: input }, schema: banner }),
    onSuccess: invalidate,
  });
}

export function useUpdateBanner(bannerId: string) {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: (input: BannerUpdate) =>
      apiRequest(path(bannerId), { method: 'PUT', json: { banner: input }, schema: banner }),
    onSuccess: invalidate,
  });
}

export function useDeleteBanner() {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: (bannerId: string) => apiRequest(path(bannerId), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useCopyBanner() {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: (bannerId: string) =>
      apiRequest(`/banners/copy/${encodeURIComponent(bannerId)}`, { method: 'POST', schema: banner }),
    onSuccess: invalidate,
  });
}

/** SPEC.md section 7: POST /banners/{id}?type=edit|new&kind=image|video, multipart field `file`. */
export function useUploadBannerMedia() {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: ({
      bannerId,
      file,
      kind,
      type,
    }: {
      bannerId: string;
      file: File;
      kind: 'image' | 'video';
      type: 'edit' | 'new';
    }) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest(path(bannerId), { multipart: body, query: { type, kind }, schema: banner });
    },
    onSuccess: invalidate,
  });
}

/** DELETE /banners/{id}/video: the creative shows no video any more (its image stays). */
export function useRemoveBannerVideo(bannerId: string) {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: () => apiRequest(`${path(bannerId)}/video`, { method: 'DELETE', schema: banner }),
    onSuccess: invalidate,
  });
}

export function useImportBannerIps(bannerId: string) {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest(`${path(bannerId)}/import-ips`, { multipart: body, schema: ipImportResult });
    },
    onSuccess: invalidate,
  });
}

export function useModerateBanner(bannerId: string) {
  const invalidate = useInvalidateBanners();
  return useMutation({
    mutationFn: (decision: { decision: 'approve' } | { decision: 'reject'; reason: string }) =>
      apiRequest(`${path(bannerId)}/moderate`, { method: 'POST', json: decision, schema: banner }),
    onSuccess: invalidate,
  });
}
