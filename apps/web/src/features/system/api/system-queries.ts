import {
  type MaintenanceState,
  maintenanceState,
  type PlatformSettings,
  platformSettings,
  systemHealth,
} from '@adp/contract';
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

/** GET /api/system: the health of the platform's parts, refreshed every 30 s while the page is open. */
export const useSystemHealth = () =>
  useQuery({
    queryKey: ['system'],
    queryFn: () => apiRequest('/system', { schema: systemHealth }),
    refetchInterval: 30_000,
  });

/** The maintenance switch (admins' banner and the system page's switch), past the browser's cache of it. */
export const useMaintenance = (enabled = true) =>
  useQuery({
    queryKey: ['system', 'maintenance'],
    queryFn: () =>
      apiRequest('/system/maintenance', { auth: false, schema: maintenanceState, cache: 'no-cache' }),
    refetchInterval: 60_000,
    enabled,
  });

export function useSetMaintenance() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enabled: boolean) =>
      apiRequest('/system/maintenance', {
        method: 'PUT',
        json: { maintenance: { enabled } },
        schema: maintenanceState,
      }),
    onSuccess: (state: MaintenanceState) => {
      queryClient.setQueryData(['system', 'maintenance'], state);
      void queryClient.invalidateQueries({ queryKey: ['system'], exact: true });
    },
  });
}
