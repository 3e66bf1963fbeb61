import { type ContentBodies, type ContentSlug, contentPage, contentPageEdit } from '@adp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const path = (slug: ContentSlug) => `/pages/${slug}`;

/** GET /api/pages/{slug}: the text in the dashboard's language (English when that one has none). */
export const contentPageQuery = (slug: ContentSlug, locale: string) =>
  queryOptions({
    queryKey: ['pages', slug, locale],
    queryFn: () => apiRequest(path(slug), { schema: contentPage, query: { locale } }),
  });
export const useContentPage = (slug: ContentSlug, locale: string) => useQuery(contentPageQuery(slug, locale));

/** GET /api/pages/{slug}/edit (admins): every language's text. */
export const useContentPageEdit = (slug: ContentSlug, enabled: boolean) =>
  useQuery({
    queryKey: ['pages', slug, 'edit'],
    queryFn: () => apiRequest(`${path(slug)}/edit`, { schema: contentPageEdit }),
    enabled,
  });

export function useSaveContentPage(slug: ContentSlug) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (bodies: ContentBodies) =>
      apiRequest(path(slug), { method: 'PUT', json: { page: { bodies } }, schema: contentPageEdit }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pages', slug] }),
  });
}
