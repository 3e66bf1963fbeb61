import { markedRead, notification, notificationsPage, unreadCount } from '@adp/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** How often the header's bell asks for the unread count (also on window focus). */
export const UNREAD_REFRESH_MS = 60_000;

export const useNotifications = (page: number, limit: number, unreadOnly: boolean) =>
  useQuery({
    queryKey: ['notifications', 'list', { page, limit, unreadOnly }],
    queryFn: () =>
      apiRequest('/notifications', {
        schema: notificationsPage,
        query: { page, limit, ...(unreadOnly ? { unread: 'true' } : {}) },
      }),
    placeholderData: keepPreviousData,
  });

/** The bell's dropdown: the newest few (the page's first page of that size; the dropdown asks once open). */
export const useLatestNotifications = (limit = 5) => useNotifications(1, limit, false);

/** The bell's count: cheap, polled every minute and when the window regains focus. */
export const useUnreadCount = (enabled: boolean) =>
  useQuery({
    queryKey: ['notifications', 'unread-count'],
    queryFn: () => apiRequest('/notifications/unread-count', { schema: unreadCount }),
    enabled,
    // a failed poll is retried by the next one, not shown: the bell must not toast every minute
    meta: { silent: true },
    refetchInterval: UNREAD_REFRESH_MS,
    refetchOnWindowFocus: 'always',
  });

function useInvalidate() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['notifications'] });
}

export function useMarkRead() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, read }: { id: string; read: boolean }) =>
      apiRequest(`/notifications/${encodeURIComponent(id)}`, {
        method: 'PUT',
        json: { read },
        schema: notification,
      }),
    onSuccess: invalidate,
  });
}

export function useMarkAllRead() {
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: () => apiRequest('/notifications/read-all', { method: 'POST', schema: markedRead }),
    onSuccess: invalidate,
  });
}
