import { type RtbPartnerInput, type RtbPartnerUpdate, rtbPartner, rtbPartnersPage } from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const rtbPartnersQuery = (page: number, limit: number) =>
  queryOptions({
    queryKey: ['rtbpartners', 'list', page, limit],
    queryFn: () => apiRequest('/rtbpartners', { schema: rtbPartnersPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });

export const useRtbPartners = (page: number, limit: number) => useQuery(rtbPartnersQuery(page, limit));

/** Create (no id) or edit a partner; the list is read again afterwards. */
export function useSaveRtbPartner() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, values }: { id?: string; values: RtbPartnerInput | RtbPartnerUpdate }) =>
      id
        ? apiRequest(`/rtbpartners/${encodeURIComponent(id)}`, {
            method: 'PUT',
            json: { rtbpartner: values },
            schema: rtbPartner,
          })
        : apiRequest('/rtbpartners', { method: 'POST', json: { rtbpartner: values }, schema: rtbPartner }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['rtbpartners'] }),
  });
}

/** A new key: the partner's old endpoint URL stops working at once. */
export function useNewRtbPartnerKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) =>
      apiRequest(`/rtbpartners/${encodeURIComponent(id)}/key`, { method: 'POST', schema: rtbPartner }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['rtbpartners'] }),
  });
}
