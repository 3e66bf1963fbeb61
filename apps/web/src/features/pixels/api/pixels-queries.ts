import { paged, pixel, type pixelInput, type pixelUpdate, withOwnerName } from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const pixelsPage = paged(withOwnerName(pixel));
const path = (pixelId: string) => `/pixels/${encodeURIComponent(pixelId)}`;

export const pixelsListQuery = (filters: { user_id?: string; page: number; limit: number }) =>
  queryOptions({
    queryKey: ['pixels', 'list', filters],
    queryFn: () => apiRequest('/pixels', { schema: pixelsPage, query: { ...filters } }),
    placeholderData: keepPreviousData,
  });
export const usePixelsList = (filters: { user_id?: string; page: number; limit: number }) =>
  useQuery(pixelsListQuery(filters));

export const pixelQuery = (pixelId: string) =>
  queryOptions({
    queryKey: ['pixels', pixelId],
    queryFn: () => apiRequest(path(pixelId), { schema: pixel }),
  });
export const usePixel = (pixelId: string) => useQuery(pixelQuery(pixelId));

export function useCreatePixel() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof pixelInput>) =>
      apiRequest('/pixels', { method: 'POST', json: { pixel: input }, schema: pixel }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pixels'] }),
  });
}

export function useUpdatePixel(pixelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: z.input<typeof pixelUpdate>) =>
      apiRequest(path(pixelId), { method: 'PUT', json: { pixel: input }, schema: pixel }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['pixels'] }),
  });
}

export function useDeletePixel(pixelId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest(path(pixelId), { method: 'DELETE' }),
    onSuccess: () => {
      queryClient.removeQueries({ queryKey: ['pixels', pixelId] });
      void queryClient.invalidateQueries({ queryKey: ['pixels', 'list'] });
    },
  });
}
