import { type PlatformSettings, platformSettings } from '@adp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

export const settingsQuery = () =>
  queryOptions({
    queryKey: ['settings'],
    queryFn: () => apiRequest('/settings', { schema: platformSettings }),
  });

export const useSettings = () => useQuery(settingsQuery());

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (settings: PlatformSettings) =>
      apiRequest('/settings', { method: 'PUT', json: { settings }, schema: platformSettings }),
    onSuccess: (saved) => queryClient.setQueryData(['settings'], saved),
  });
}
