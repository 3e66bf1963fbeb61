import {
  material,
  type ParserConvertInput,
  paged,
  parserConvertResult,
  parserPreview,
  type SiteParser,
  site,
  siteAdsenseDay,
  type siteInput,
  type sitesQuery,
  type siteUpdate,
  widget,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const siteRow = withOwnerName(site);
const sitesPage = paged(siteRow);
const materialsPage = paged(material);
const adsenseDaysPage = paged(siteAdsenseDay);
const widgetsPage = paged(withOwnerName(widget));
const parseResult = z.object({ stored: z.number().int(), skipped: parserPreview.shape.skipped });
const clearResult = z.object({ deleted: z.number().int() });

const path = (siteId: string) => `/sites/${encodeURIComponent(siteId)}`;

export type SitesFilters = Partial<z.output<typeof sitesQuery>> & { owner?: string | undefined };
/** A row of the sites list: the site and its owner's name. */
export type SiteRow = z.infer<typeof siteRow>;
export type SiteUpdate = z.input<typeof siteUpdate>;

export const sitesListQuery = (filters: SitesFilters) =>
  queryOptions({
    queryKey: ['sites', 'list', filters],
    queryFn: () => apiRequest('/sites', { schema: sitesPage, query: { ...filters } }),
    placeholderData: keepPreviousData,
  });
export const useSitesList = (filters: SitesFilters) => useQuery(sitesListQuery(filters));

export const siteQuery = (siteId: string) =>
  queryOptions({ queryKey: ['sites', siteId], queryFn: () => apiRequest(path(siteId), { schema: site }) });
export const useSite = (siteId: string) => useQuery(siteQuery(siteId));

export const siteMaterialsQuery = (siteId: string, page: number, limit = 10) =>
  queryOptions({
    queryKey: ['sites', siteId, 'materials', { page, limit }],
    queryFn: () => apiRequest(`${path(siteId)}/materials`, { schema: materialsPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useSiteMaterials = (siteId: string, page: number) => useQuery(siteMaterialsQuery(siteId, page));

/** The site's AdSense days that an approved import credited, newest first (the site page's AdSense card). */
export const siteAdsenseDaysQuery = (siteId: string, page: number, limit = 10) =>
  queryOptions({
    queryKey: ['sites', siteId, 'adsense-incomes', { page, limit }],
    queryFn: () =>
      apiRequest(`${path(siteId)}/adsense-incomes`, { schema: adsenseDaysPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
    meta: { silent: true },
  });
export const useSiteAdsenseDays = (siteId: string, page: number, limit = 10) =>
  useQuery(siteAdsenseDaysQuery(siteId, page, limit));

/** The widgets of one site, shown on its overview. */
export const siteWidgetsQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['widgets', 'list', { site_id: siteId, limit: 100 }],
    queryFn: () => apiRequest('/widgets', { schema: widgetsPage, query: { site_id: siteId, limit: 100 } }),
  });
export const useSiteWidgets = (siteId: string) => useQuery(siteWidgetsQuery(siteId));

function useInvalidateSites() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['sites'] });
}

export function useCreateSite() {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: (input: z.input<typeof siteInput>) =>
      apiRequest('/sites', { method: 'POST', json: { site: input }, schema: site }),
    onSuccess: invalidate,
  });
}

export function useUpdateSite(siteId: string) {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: (input: SiteUpdate) =>
      apiRequest(path(siteId), { method: 'PUT', json: { site: input }, schema: site }),
    onSuccess: invalidate,
  });
}

export function useDeleteSite(siteId: string) {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: () => apiRequest(path(siteId), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

export function useRssTest(siteId: string) {
  return useMutation({
    mutationFn: () => apiRequest(`${path(siteId)}/rss-test`, { schema: parserPreview }),
  });
}

export function useParserTest(siteId: string) {
  return useMutation({
    mutationFn: (parser: SiteParser) =>
      apiRequest(`${path(siteId)}/parser-test`, { method: 'POST', json: { parser }, schema: parserPreview }),
  });
}

/** parser/convert: a date parse string from another system in the parser's tokens, tried on a sample. */
export function useParserConvert() {
  return useMutation({
    // a refusal is shown under the field (DateFormatCheck), other failures as the usual toast there
    meta: { silent: true },
    mutationFn: (input: ParserConvertInput) =>
      apiRequest('/parser/convert', { method: 'POST', json: input, schema: parserConvertResult }),
  });
}

export function useParseNow(siteId: string) {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: () => apiRequest(`${path(siteId)}/parse`, { method: 'POST', schema: parseResult }),
    onSuccess: invalidate,
  });
}

/** Toasts of its own (SPEC.md section 8), so the generic one stays away. */
export function useClearMaterials(siteId: string) {
  const invalidate = useInvalidateSites();
  return useMutation({
    mutationFn: () => apiRequest(`${path(siteId)}/materials`, { method: 'DELETE', schema: clearResult }),
    onSuccess: invalidate,
    meta: { silent: true },
  });
}
