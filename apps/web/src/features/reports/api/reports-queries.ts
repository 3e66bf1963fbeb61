import { type ReportFormat, type ReportGroup, type ReportType, reportAnswer } from '@adp/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { apiDownload, apiRequest, saveFile } from '../../../lib/api-client.ts';

/** The filters of a report as the page keeps them (and the URL carries them). */
export interface ReportFilters {
  type: ReportType;
  from: string;
  to: string;
  tz: string;
  group?: ReportGroup | undefined;
  user_id?: string | undefined;
  site_id?: string | undefined;
  campaign_id?: string | undefined;
  status?: 'charged' | 'invalid' | undefined;
}

export const reportQuery = (filters: ReportFilters, page: number, limit: number) =>
  queryOptions({
    queryKey: ['reports', filters, page, limit],
    queryFn: () => apiRequest('/reports', { schema: reportAnswer, query: { ...filters, page, limit } }),
    placeholderData: keepPreviousData,
    // the page says what failed, once, where the filters are (no toast that outlives the fix)
    meta: { silent: true },
  });

/** The report's page; not asked while a filter the page holds cannot be sent (`enabled` false). */
export const useReport = (filters: ReportFilters, page: number, limit: number, enabled = true) =>
  useQuery({ ...reportQuery(filters, page, limit), enabled });

/** Downloads the whole report as a CSV or XLSX file (GET /api/reportsexport with the bearer token). */
export function useReportExport() {
  return useMutation({
    mutationFn: async ({ filters, format }: { filters: ReportFilters; format: ReportFormat }) =>
      saveFile(
        await apiDownload('/reportsexport', {
          query: { ...filters, format },
          fallback: `report-${filters.type}.${format}`,
        }),
      ),
  });
}
