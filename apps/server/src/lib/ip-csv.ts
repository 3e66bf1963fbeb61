import { parseRange } from '@adp/contract';
import { parse as parseCsv } from 'csv-parse/sync';
import { AppError } from './errors.ts';

/**
 * Reads IPs and CIDR ranges from the first column of a CSV (IPv4 and IPv6; a header row and `#`
 * comments are skipped). Answers the normalised ranges and the bad rows by line number.
 */
export function parseIpCsv(csv: string): { ranges: string[]; errors: { line: number; value: string }[] } {
  let records: string[][];
  try {
    records = parseCsv(csv, { relax_column_count: true, skip_empty_lines: false, trim: true, bom: true });
  } catch {
    throw new AppError(422, 'invalid_file', {}, 'file');
  }
  const errors: { line: number; value: string }[] = [];
  const ranges: string[] = [];
  records.forEach((rec, i) => {
    const value = (rec[0] ?? '').trim();
    if (!value || value.startsWith('#')) return;
    if (i === 0 && /^[a-z_ ]+$/i.test(value)) return;
    const parsed = parseRange(value);
    if (!parsed) errors.push({ line: i + 1, value: value.slice(0, 100) });
    else ranges.push(value.includes('/') ? `${parsed[0].toString()}/${parsed[1]}` : parsed[0].toString());
  });
  return { ranges, errors };
}
