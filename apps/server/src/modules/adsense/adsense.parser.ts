import { type AdsenseFormat, toMicros } from '@adp/contract';
import { parse as parseCsv } from 'csv-parse/sync';
import dayjs from 'dayjs';
import customParseFormat from 'dayjs/plugin/customParseFormat.js';
import { AppError } from '../../lib/errors.ts';

dayjs.extend(customParseFormat);

/** One report row as read, before sites are mapped. Money in micro-units. */
export interface ParsedRow {
  line: number;
  date: string | null;
  source: string;
  pageViews: number;
  impressions: number;
  clicks: number;
  revenue: bigint;
  errors: { field: string; code: string }[];
}

export interface ParsedReport {
  format: AdsenseFormat;
  currency: string;
  rows: ParsedRow[];
}

export const MAX_ROWS = 10_000;

/**
 * The text of an upload: today's AdSense CSV is UTF-8 (with or without a BOM); older exports are UTF-16
 * LE with a BOM (`FF FE`) and tab-separated. UTF-16 BE is read too; other binary content is refused.
 */
export function decodeReport(bytes: Buffer): { text: string; format: AdsenseFormat } {
  if (bytes[0] === 0xff && bytes[1] === 0xfe)
    return { text: bytes.subarray(2).toString('utf16le'), format: 'legacy' };
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    const swapped = Buffer.from(bytes.subarray(2));
    swapped.swap16();
    return { text: swapped.toString('utf16le'), format: 'legacy' };
  }
  const text = bytes.toString('utf8').replace(/^\uFEFF/, '');
  if (text.includes('\u0000') || text.includes('\uFFFD')) throw new AppError(422, 'invalid_file', {}, 'file');
  return { text, format: 'current' };
}

const norm = (h: string) =>
  h
    .replace(/^\uFEFF/, '')
    .trim()
    .toLowerCase()
    .replace(/\s+/g, ' ');

const sourceHeaders = new Set([
  'site',
  'sites',
  'domain',
  'domain name',
  'url',
  'url channel',
  'url channels',
  'ad unit',
  'ad unit name',
  'ad units',
]);

interface Columns {
  date: number;
  revenue: number;
  currency: string;
  source?: number;
  pageViews?: number;
  impressions?: number;
  clicks?: number;
}

function columnsOf(header: string[]): Columns {
  let date: number | undefined;
  let revenue: number | undefined;
  let currency = 'USD';
  const cols: Partial<Columns> = {};
  header.forEach((raw, i) => {
    const h = norm(raw);
    if (date === undefined && (h === 'date' || h === 'day')) date = i;
    const money = /^(?:estimated )?(?:earnings|revenue)(?: \(([a-z]{3})\))?$/.exec(h);
    if (revenue === undefined && money) {
      revenue = i;
      if (money[1]) currency = money[1].toUpperCase();
    }
    if (cols.source === undefined && sourceHeaders.has(h)) cols.source = i;
    if (cols.pageViews === undefined && (h === 'page views' || h === 'pageviews')) cols.pageViews = i;
    if (cols.impressions === undefined && (h === 'impressions' || h === 'ad impressions'))
      cols.impressions = i;
    if (cols.clicks === undefined && h === 'clicks') cols.clicks = i;
  });
  const missing = [date === undefined && 'Date', revenue === undefined && 'Estimated earnings'].filter(
    Boolean,
  );
  if (date === undefined || revenue === undefined)
    throw new AppError(422, 'adsense_columns', { columns: missing.join(', ') }, 'file');
  return { ...cols, date, revenue, currency };
}

const dateFormats = [
  'YYYY-MM-DD',
  'YYYY/MM/DD',
  'M/D/YYYY',
  'M/D/YY',
  'D.M.YYYY',
  'MMM D, YYYY',
  'D MMM YYYY',
  'YYYYMMDD',
];

function readDate(v: string): string | null {
  const s = v.trim();
  for (const f of dateFormats) {
    const d = dayjs(s, f, 'en', true);
    if (d.isValid()) return d.format('YYYY-MM-DD');
  }
  return null;
}

/** Drops spaces, a currency sign or code, and thousands separators; keeps the decimal point. */
function plainNumber(v: string): string | null {
  let s = v
    .replace(/[\s\u00a0\u202f]/g, '')
    .replace(/^[A-Z]{3}|[A-Z]{3}$/g, '')
    .replace(/^[$€£¥₽₴]|[$€£¥₽₴]$/g, '');
  if (s === '' || s === '—' || s === '-' || s === '–') return '0';
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(s)) s = s.replace(/,/g, '');
  else if (/^-?\d{1,3}(\.\d{3})+(,\d+)?$/.test(s)) s = s.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d+,\d{1,2}$/.test(s)) s = s.replace(',', '.');
  return /^-?\d+(\.\d+)?$/.test(s) ? s : null;
}

function readCount(v: string | undefined): number | null {
  const s = plainNumber(v ?? '');
  if (s === null || !/^\d+$/.test(s)) return null;
  const n = Number(s);
  return Number.isSafeInteger(n) ? n : null;
}

function readMoney(v: string | undefined): bigint | null {
  const s = plainNumber(v ?? '');
  if (s === null || s.startsWith('-')) return null;
  try {
    return toMicros(s);
  } catch {
    return null;
  }
}

/** AdSense puts summary lines under the rows: they are not a day's income. */
const summaryLine = /^(totals?|averages?|итого|всего|gesamt|summe|total|moyenne|média)$/i;

/**
 * Reads an AdSense report (csv-parse): the header names the columns (Date, Estimated earnings (USD),
 * Page views, Impressions, Clicks, and the Site / Domain name / URL channel / Ad unit the row belongs to);
 * every other line is a row with its errors. A file that is not a report is a 422 on `file`.
 * @example parseReport(Buffer.from('Date,Site,Estimated earnings (USD)\n2026-11-01,news.example,12.50\n'))
 */
export function parseReport(bytes: Buffer): ParsedReport {
  const { text, format } = decodeReport(bytes);
  const firstLine = text.slice(0, text.indexOf('\n') === -1 ? undefined : text.indexOf('\n'));
  const delimiter = firstLine.includes('\t')
    ? '\t'
    : firstLine.split(';').length > firstLine.split(',').length
      ? ';'
      : ',';
  let records: string[][];
  try {
    records = parseCsv(text, {
      delimiter,
      relax_column_count: true,
      relax_quotes: true,
      skip_empty_lines: true,
      bom: true,
    });
  } catch {
    throw new AppError(422, 'invalid_file', {}, 'file');
  }
  const headerAt = records.findIndex((r) => r.some((c) => ['date', 'day'].includes(norm(c))));
  if (headerAt === -1) throw new AppError(422, 'adsense_columns', { columns: 'Date' }, 'file');
  const cols = columnsOf(records[headerAt]!);
  const rows: ParsedRow[] = [];
  for (let i = headerAt + 1; i < records.length; i++) {
    const r = records[i]!;
    if (r.every((c) => c.trim() === '')) continue;
    const first = (r[0] ?? '').trim();
    if (summaryLine.test(first) || summaryLine.test((r[cols.date] ?? '').trim())) continue;
    if (rows.length >= MAX_ROWS) throw new AppError(422, 'invalid_file', {}, 'file');
    const errors: ParsedRow['errors'] = [];
    const date = readDate(r[cols.date] ?? '');
    if (!date) errors.push({ field: 'date', code: 'adsense_date' });
    const count = (field: string, at: number | undefined) => {
      if (at === undefined) return 0;
      const n = readCount(r[at]);
      if (n === null) errors.push({ field, code: 'adsense_number' });
      return n ?? 0;
    };
    const pageViews = count('page_views', cols.pageViews);
    const impressions = count('impressions', cols.impressions);
    const clicks = count('clicks', cols.clicks);
    const revenue = readMoney(r[cols.revenue]);
    if (revenue === null) errors.push({ field: 'adsense_revenue', code: 'adsense_number' });
    rows.push({
      line: i + 1,
      date,
      source: cols.source === undefined ? '' : (r[cols.source] ?? '').trim().slice(0, 500),
      pageViews,
      impressions,
      clicks,
      revenue: revenue ?? 0n,
      errors,
    });
  }
  if (!rows.length) throw new AppError(422, 'invalid_file', {}, 'file');
  return { format, currency: cols.currency, rows };
}

/** `https://www.News.example:443/path` → `news.example`; also for ad unit names that are a host. */
export function hostOf(v: string): string {
  return v
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/[/?#].*$/, '')
    .replace(/:\d+$/, '')
    .replace(/^www\./, '')
    .replace(/\.$/, '');
}
