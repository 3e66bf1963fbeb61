import { type CurrencyUpdate, currency, paged, ratesRefreshResult } from '@adp/contract';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from '../../../lib/api-client.ts';

const currenciesPage = paged(currency);

export const currenciesQuery = () =>
  queryOptions({
    queryKey: ['currencies', 'list'],
    queryFn: () => apiRequest('/currencies', { schema: currenciesPage, query: { limit: 500 } }),
  });

export const useCurrencies = () => useQuery(currenciesQuery());

export function useUpdateCurrency() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, update }: { id: string; update: CurrencyUpdate }) =>
      apiRequest(`/currencies/${encodeURIComponent(id)}`, {
        method: 'PUT',
        json: { currency: update },
        schema: currency,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['currencies'] }),
  });
}

export function useRefreshRates() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiRequest('/currencies/refresh', { method: 'POST', schema: ratesRefreshResult }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['currencies'] }),
  });
}
