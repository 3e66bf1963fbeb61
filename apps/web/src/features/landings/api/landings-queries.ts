import {
  landing,
  landingImage,
  type landingInput,
  landingLead,
  type landingUpdate,
  paged,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';
import { currentLocale } from '../../../lib/i18n.ts';

const landingsPage = paged(landing);
const leadsPage = paged(landingLead);
const path = (landingId: string) => `/landings/${encodeURIComponent(landingId)}`;

export type LandingCreate = z.input<typeof landingInput>;
export type LandingUpdate = z.input<typeof landingUpdate>;

export const landingsListQuery = (userId: string, page: number, limit = 20) =>
  queryOptions({
    queryKey: ['landings', 'list', { user_id: userId, page, limit }],
    queryFn: () => apiRequest('/landings', { schema: landingsPage, query: { user_id: userId, page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useLandingsList = (userId: string, page: number) => useQuery(landingsListQuery(userId, page));

export const landingQuery = (landingId: string) =>
  queryOptions({
    queryKey: ['landings', landingId],
    queryFn: () => apiRequest(path(landingId), { schema: landing }),
  });
export const useLanding = (landingId: string) => useQuery(landingQuery(landingId));

export const leadsQuery = (landingId: string, page: number, limit = 20) =>
  queryOptions({
    queryKey: ['landings', landingId, 'leads', { page, limit }],
    queryFn: () => apiRequest(`${path(landingId)}/leads`, { schema: leadsPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });
export const useLeads = (landingId: string, page: number) => useQuery(leadsQuery(landingId, page));

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['landings'] });
}

export function useCreateLanding() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: LandingCreate) =>
      apiRequest('/landings', { method: 'POST', json: { landing: input }, schema: landing }),
    onSuccess: invalidate,
  });
}

export function useUpdateLanding(landingId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: LandingUpdate) =>
      apiRequest(path(landingId), { method: 'PUT', json: { landing: input }, schema: landing }),
    onSuccess: invalidate,
  });
}

export function useDeleteLanding(landingId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(path(landingId), { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['landings', landingId] });
      void queryClient.invalidateQueries({ queryKey: ['landings', 'list'] });
    },
  });
}

/** SPEC.md section 7: generate POST with user_id and page_id (the landing), in the interface language. */
export function useGenerateLanding() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: { user_id: string; page_id: string }) =>
      apiRequest('/landings/generate', {
        method: 'POST',
        json: { ...input, locale: currentLocale() },
        schema: landing,
      }),
    onSuccess: invalidate,
  });
}

/** Downloads the leads as CSV through the authorised client and hands the file to the browser. */
export async function downloadLeadsCsv(landingId: string): Promise<void> {
  const text = await apiRequest<string>(`${path(landingId)}/leads.csv`);
  const blob = new Blob([typeof text === 'string' ? text : ''], { type: 'text/csv;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = `landing-${landingId}-leads.csv`;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** SPEC.md section 7 "dash landing upload": an image for the page (multipart `file`) → its public URL. */
export function useUploadLandingImage(landingId: string) {
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest(`${path(landingId)}/images`, {
        method: 'POST',
        multipart: body,
        schema: landingImage,
      });
    },
  });
}
