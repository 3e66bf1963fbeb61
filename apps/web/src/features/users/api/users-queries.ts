import {
  account,
  currency,
  ledgerEntry,
  type PaymentInput,
  paged,
  type Role,
  referralSummary,
  statusOk,
  type UsersQuery,
  type UserUpdate,
} from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const usersPage = paged(account);
const ledgerPage = paged(ledgerEntry);
const currenciesPage = paged(currency);
const path = (userId: string) => `/users/${encodeURIComponent(userId)}`;

export const fetchUser = (userId: string) => apiRequest(path(userId), { schema: account });

export const userQuery = (userId: string) =>
  queryOptions({ queryKey: ['users', userId], queryFn: () => fetchUser(userId) });

export const useUser = (userId: string) => useQuery(userQuery(userId));

export type UsersFilters = Partial<UsersQuery>;

export const usersListQuery = (filters: UsersFilters) =>
  queryOptions({
    queryKey: ['users', 'list', filters],
    queryFn: () => apiRequest('/users', { schema: usersPage, query: { ...filters } }),
    placeholderData: keepPreviousData,
  });

export const useUsersList = (filters: UsersFilters) => useQuery(usersListQuery(filters));

export const userPaymentsQuery = (userId: string, page: number, limit: number) =>
  queryOptions({
    queryKey: ['users', userId, 'payments', { page, limit }],
    queryFn: () => apiRequest(`${path(userId)}/payments`, { schema: ledgerPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });

export const useUserPayments = (userId: string, page: number, limit = 20) =>
  useQuery(userPaymentsQuery(userId, page, limit));

export const userTransactionsQuery = (userId: string, page: number, limit: number) =>
  queryOptions({
    queryKey: ['users', userId, 'transactions', { page, limit }],
    queryFn: () => apiRequest(`${path(userId)}/transactions`, { schema: ledgerPage, query: { page, limit } }),
    placeholderData: keepPreviousData,
  });

export const useUserTransactions = (userId: string, page: number, limit = 20) =>
  useQuery(userTransactionsQuery(userId, page, limit));

export const referralsQuery = (userId: string) =>
  queryOptions({
    queryKey: ['users', userId, 'referrals'],
    queryFn: () => apiRequest(`${path(userId)}/referrals`, { schema: referralSummary }),
  });

export const useReferrals = (userId: string) => useQuery(referralsQuery(userId));

/** Every currency a user may display amounts in (one page holds them all). */
export const currencyOptionsQuery = () =>
  queryOptions({
    queryKey: ['currencies', 'options'],
    queryFn: () => apiRequest('/currencies', { schema: currenciesPage, query: { limit: 500 } }),
    staleTime: 10 * 60_000,
  });

export const useCurrencyOptions = () => useQuery(currencyOptionsQuery());

/** A changed account shows everywhere: its page, the lists and the header's own account. */
function useInvalidateUsers() {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries({ queryKey: ['users'] });
    await queryClient.invalidateQueries({ queryKey: ['auth', 'me'] });
  };
}

export function useUpdateUser(userId: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (user: UserUpdate) =>
      apiRequest(path(userId), { method: 'PUT', json: { user }, schema: account }),
    onSuccess: invalidate,
  });
}

export function useChangePassword(userId: string) {
  return useMutation({
    mutationFn: (body: { password: string; current_password?: string }) =>
      apiRequest(`${path(userId)}/changepassword`, { method: 'POST', json: body, schema: statusOk }),
  });
}

export function useChangeRole(userId: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (role: Role) =>
      apiRequest(`${path(userId)}/changeroles`, { method: 'POST', json: { role }, schema: account }),
    onSuccess: invalidate,
  });
}

export function usePayUser(userId: string) {
  const invalidate = useInvalidateUsers();
  return useMutation({
    mutationFn: (payment: PaymentInput) =>
      apiRequest(`${path(userId)}/payments`, { method: 'POST', json: { payment }, schema: ledgerEntry }),
    onSuccess: invalidate,
  });
}
