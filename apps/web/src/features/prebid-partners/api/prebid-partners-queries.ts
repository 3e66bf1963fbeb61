import {
  type PrebidStatsQuery,
  paged,
  prebidPartner,
  type prebidPartnerInput,
  type prebidPartnerUpdate,
  prebidStatsAnswer,
} from '@adp/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const page = paged(prebidPartner);
const path = (id: string) => `/prebidpartners/${encodeURIComponent(id)}`;
export const LIMIT = 20;

export type PrebidPartnerCreate = z.input<typeof prebidPartnerInput>;
export type PrebidPartnerChange = z.input<typeof prebidPartnerUpdate>;

export const usePrebidPartners = (q: { page: number; q: string }) =>
  useQuery({
    queryKey: ['prebidpartners', 'list', q],
    queryFn: () =>
      apiRequest('/prebidpartners', {
        schema: page,
        query: { page: q.page, limit: LIMIT, ...(q.q ? { q: q.q } : {}) },
      }),
    placeholderData: keepPreviousData,
  });

export const usePrebidPartner = (id: string) =>
  useQuery({
    queryKey: ['prebidpartners', id],
    queryFn: () => apiRequest(path(id), { schema: prebidPartner }),
    enabled: Boolean(id),
  });

/** `v2` asks /v2/stats (any group), otherwise /stats (by date). */
export const usePrebidStats = (
  id: string,
  v2: boolean,
  q: Pick<PrebidStatsQuery, 'group'> & { from: string; to: string; tz: string },
) =>
  useQuery({
    queryKey: ['prebidpartners', id, 'stats', v2, q],
    queryFn: () =>
      apiRequest(`${path(id)}${v2 ? '/v2/stats' : '/stats'}`, {
        schema: prebidStatsAnswer,
        query: v2
          ? { from: q.from, to: q.to, tz: q.tz, group: q.group }
          : { from: q.from, to: q.to, tz: q.tz },
      }),
    placeholderData: keepPreviousData,
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['prebidpartners'] });
}

export function useSavePrebidPartner(id?: string) {
  const onSuccess = useInvalidate();
  return useMutation({
    mutationFn: (input: PrebidPartnerCreate) =>
      id
        ? apiRequest(path(id), { method: 'PUT', json: { prebidpartner: input }, schema: prebidPartner })
        : apiRequest('/prebidpartners', {
            method: 'POST',
            json: { prebidpartner: input },
            schema: prebidPartner,
          }),
    onSuccess,
  });
}

export function useDeletePrebidPartner(id: string) {
  const onSuccess = useInvalidate();
  return useMutation({ mutationFn: () => apiRequest(path(id), { method: 'DELETE' }), onSuccess });
}
