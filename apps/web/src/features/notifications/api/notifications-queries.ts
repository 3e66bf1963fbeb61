import { markedRead, notification, notificationsPage, unreadCount } from '@adp/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

/** How often the header's bell asks for the unread count (also on window focus). */
export const UNREAD_REFRESH_MS = 60_000;

/**
 * Which notifications a list shows: all or the unread ones, without the exchange's per-bid notices (one per
 * exchange impression, they would bury every other notification; the bell does not count them either), or
 * only those notices.
 */
export type NotificationsFilter = 'all' | 'unread' | 'exchange';

export const useNotifications = (page: number, limit: number, filter: NotificationsFilter) =>
  useQuery({
    queryKey: ['notifications', 'list', { page, limit, filter }],
    queryFn: () =>
      apiRequest('/notifications', {
        schema: notificationsPage,
        query: {
          page,
          limit,
          exchange: filter === 'exchange' ? 'only' : 'exclude',
          ...(filter === 'unread' ? { unread: 'true' } : {}),
        },
      }),
    placeholderData: keepPreviousData,
  });

/** The bell's dropdown: the newest few (the page's first page of that size; the dropdown asks once open). */
export const useLatestNotifications = (limit = 5) => useNotifications(1, limit, 'all');

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
