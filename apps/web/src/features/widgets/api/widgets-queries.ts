import {
  paged,
  site,
  type WidgetSettings,
  widget,
  type widgetInput,
  widgetItem,
  widgetSettings,
  type widgetUpdate,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const widgetsPage = paged(withOwnerName(widget));
const sitesPage = paged(withOwnerName(site));
const previewAnswer = z.object({ settings: widgetSettings, items: z.array(widgetItem) });
const path = (widgetId: string) => `/widgets/${encodeURIComponent(widgetId)}`;

export type WidgetCreate = z.input<typeof widgetInput>;
export type WidgetUpdate = z.input<typeof widgetUpdate>;

export const siteWidgetsQuery = (siteId: string, page: number, limit = 20) =>
  queryOptions({
    queryKey: ['widgets', 'list', { site_id: siteId, page, limit }],
    queryFn: () => apiRequest('/widgets', { schema: widgetsPage, query: { site_id: siteId, page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useSiteWidgets = (siteId: string, page: number) => useQuery(siteWidgetsQuery(siteId, page));

export const widgetQuery = (widgetId: string) =>
  queryOptions({
    queryKey: ['widgets', widgetId],
    queryFn: () => apiRequest(path(widgetId), { schema: widget }),
  });
export const useWidget = (widgetId: string) => useQuery(widgetQuery(widgetId));

/** The parent site's name for headers and back links. */
export const widgetSiteQuery = (siteId: string) =>
  queryOptions({
    queryKey: ['sites', siteId],
    queryFn: () => apiRequest(`/sites/${encodeURIComponent(siteId)}`, { schema: site }),
    enabled: Boolean(siteId),
  });
export const useWidgetSite = (siteId: string) => useQuery(widgetSiteQuery(siteId));

/** Sites a new widget may belong to, when the page was opened without one. */
export const siteChoicesQuery = () =>
  queryOptions({
    queryKey: ['sites', 'list', { limit: 100 }],
    queryFn: () => apiRequest('/sites', { schema: sitesPage, query: { limit: 100 } }),
  });
export const useSiteChoices = (enabled: boolean) => useQuery({ ...siteChoicesQuery(), enabled });

function useInvalidateWidgets() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['widgets'] });
}

export function useCreateWidget() {
  const invalidate = useInvalidateWidgets();
  return useMutation({
    mutationFn: (input: WidgetCreate) =>
      apiRequest('/widgets', { method: 'POST', json: { widget: input }, schema: widget }),
    onSuccess: invalidate,
  });
}

export function useUpdateWidget(widgetId: string) {
  const invalidate = useInvalidateWidgets();
  return useMutation({
    mutationFn: (input: WidgetUpdate) =>
      apiRequest(path(widgetId), { method: 'PUT', json: { widget: input }, schema: widget }),
    onSuccess: invalidate,
  });
}

export function useDeleteWidget(widgetId: string) {
  const invalidate = useInvalidateWidgets();
  return useMutation({
    mutationFn: () => apiRequest(path(widgetId), { method: 'DELETE' }),
    onSuccess: invalidate,
  });
}

/** Preview v1: the unsaved settings and the items (the site's materials or samples) to render them with. */
export const widgetPreviewQuery = (settings: WidgetSettings, siteId?: string) =>
  queryOptions({
    queryKey: ['widgets', 'preview', siteId ?? null, settings],
    queryFn: ({ signal }) =>
      apiRequest('/widgets/preview', {
        method: 'POST',
        json: { widget: { settings, site_id: siteId } },
        schema: previewAnswer,
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
export const useWidgetPreview = (settings: WidgetSettings | null, siteId?: string) =>
  useQuery({
    ...widgetPreviewQuery(settings ?? widgetSettings.parse({}), siteId),
    enabled: settings !== null,
  });

/** Preview v2: a whole HTML document running the embed script, for an iframe. */
export const widgetPreviewFrameQuery = (settings: WidgetSettings, siteId?: string, title?: string) =>
  queryOptions({
    queryKey: ['widgets', 'preview-v2', siteId ?? null, title ?? '', settings],
    queryFn: ({ signal }) =>
      apiRequest('/widgets/preview/v2', {
        method: 'POST',
        json: { widget: { settings, site_id: siteId, title } },
        schema: z.string(),
        signal,
      }),
    placeholderData: keepPreviousData,
    staleTime: 60_000,
  });
export const useWidgetPreviewFrame = (
  settings: WidgetSettings | null,
  siteId: string | undefined,
  title: string | undefined,
  enabled: boolean,
) =>
  useQuery({
    ...widgetPreviewFrameQuery(settings ?? widgetSettings.parse({}), siteId, title),
    enabled: enabled && settings !== null,
  });
