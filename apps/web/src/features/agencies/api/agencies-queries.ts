import {
  type AgencyInput,
  type addMemberInput,
  agency,
  agencyMember,
  type agencyUpdate,
  type memberUpdate,
  paged,
  withOwnerName,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiRequest } from '../../../lib/api-client.ts';

const agenciesPage = paged(withOwnerName(agency));
const membersPage = paged(agencyMember);
const path = (agencyId: string) => `/agencies/${encodeURIComponent(agencyId)}`;

export const agenciesQuery = (filters: { page: number; limit: number; account?: string }) =>
  queryOptions({
    queryKey: ['agencies', 'list', filters],
    queryFn: () => apiRequest('/agencies', { schema: agenciesPage, query: filters }),
    placeholderData: keepPreviousData,
  });

export const useAgencies = (filters: { page: number; limit: number; account?: string }) =>
  useQuery(agenciesQuery(filters));

export const agencyQuery = (agencyId: string) =>
  queryOptions({
    queryKey: ['agencies', agencyId],
    queryFn: () => apiRequest(path(agencyId), { schema: agency }),
  });

export const useAgency = (agencyId: string) => useQuery(agencyQuery(agencyId));

/** Every member on one page (an agency has a handful of them). */
export const membersQuery = (agencyId: string) =>
  queryOptions({
    queryKey: ['agencies', agencyId, 'members'],
    queryFn: () => apiRequest(`${path(agencyId)}/members`, { schema: membersPage, query: { limit: 500 } }),
  });

export const useMembers = (agencyId: string, enabled = true) =>
  useQuery({ ...membersQuery(agencyId), enabled });

function useInvalidate() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ['agencies'] });
    // owns.agencies on the account page counts them
    await queryClient.invalidateQueries({ queryKey: ['users'] });
  };
}

export function useCreateAgency() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: Partial<AgencyInput> & { title: string }) =>
      apiRequest('/agencies', { method: 'POST', json: { agency: input }, schema: agency }),
    onSuccess: invalidate,
  });
}

export function useUpdateAgency(agencyId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (input: z.infer<typeof agencyUpdate>) =>
      apiRequest(path(agencyId), { method: 'PUT', json: { agency: input }, schema: agency }),
    onSuccess: invalidate,
  });
}

export function useUploadLogo(agencyId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (file: File) => {
      const body = new FormData();
      body.append('file', file);
      return apiRequest(`${path(agencyId)}/logo`, { method: 'POST', multipart: body, schema: agency });
    },
    onSuccess: invalidate,
  });
}

export function useAddMember(agencyId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (member: z.infer<typeof addMemberInput>) =>
      apiRequest(`${path(agencyId)}/addmember`, { method: 'POST', json: { member }, schema: agencyMember }),
    onSuccess: invalidate,
  });
}

export function useUpdateMember(agencyId: string, memberId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (member: z.infer<typeof memberUpdate>) =>
      apiRequest(`${path(agencyId)}/members/${encodeURIComponent(memberId)}`, {
        method: 'PUT',
        json: { member },
        schema: agencyMember,
      }),
    onSuccess: invalidate,
  });
}

export function useRemoveMember(agencyId: string) {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (userId: string) =>
      apiRequest(`${path(agencyId)}/removemember`, {
        method: 'POST',
        json: { user_id: userId },
        schema: agency,
      }),
    onSuccess: invalidate,
  });
}
