import { type AdsenseApprove, adsenseImport, adsenseImportDetail, id, paged } from '@adp/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

export const LIMIT = 20;
const list = paged(adsenseImport);
/** Only what the picker shows (the admin list carries more, e.g. the owner's name). */
const sitePage = paged(z.object({ _id: id, title: z.string(), domain: z.string() }));

/** GET /api/adsense (page, limit): the uploaded reports, newest first. */
export const useAdsenseImports = (page: number) =>
  useQuery({
    queryKey: ['adsense', 'list', page],
    queryFn: () => apiRequest('/adsense', { schema: list, query: { page, limit: LIMIT } }),
    placeholderData: keepPreviousData,
  });

/** GET /api/adsense/{id}: one import with its rows and their errors. */
export const useAdsenseImport = (id: string) =>
  useQuery({
    queryKey: ['adsense', id],
    queryFn: () => apiRequest(`/adsense/${encodeURIComponent(id)}`, { schema: adsenseImportDetail }),
    enabled: Boolean(id),
  });

/** POST /api/adsense/upload (multipart `file`); an error is a danger toast with the server's message. */
export function useUploadAdsense() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest('/adsense/upload', { method: 'POST', multipart: body, schema: adsenseImportDetail });
    },
    onSuccess: (detail) => {
      qc.setQueryData(['adsense', detail._id], detail);
      return qc.invalidateQueries({ queryKey: ['adsense', 'list'] });
    },
  });
}

/** POST /api/adsense/approve with `{adsense: {_id, rows}}`. */
export function useApproveAdsense() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (adsense: AdsenseApprove['adsense']) =>
      apiRequest('/adsense/approve', { method: 'POST', json: { adsense }, schema: adsenseImportDetail }),
    onSuccess: (detail) => {
      qc.setQueryData(['adsense', detail._id], detail);
      return qc.invalidateQueries({ queryKey: ['adsense', 'list'] });
    },
  });
}

/** Sites to map a row to, found by title or domain. */
export const useSiteChoices = (search: string) =>
  useQuery({
    queryKey: ['sites', 'adsense-choices', search],
    queryFn: () =>
      apiRequest('/sites', { schema: sitePage, query: { limit: 50, ...(search ? { search } : {}) } }),
    placeholderData: keepPreviousData,
  });
