import type { Readable } from 'node:stream';
import {
  type ReportColumn,
  type ReportRow,
  type StatsFileFormat,
  type StatsFileSide,
  type StatsValues,
  statsFileColumns,
  statsFileName,
} from '@adp/contract';
import type { FastifyReply } from 'fastify';
import { csvFile, xlsxFile } from '../reports/report-files.ts';

/** Rows a file chunk carries: the writers read one chunk at a time. */
const CHUNK = 500;

const contentTypes = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

const round6 = (n: number) => Math.round(n * 1e6) / 1e6;

/** vCPM as the dashboard shows it: money per 1000 viewable impressions (the platform's: of the spend). */
function vcpm(v: StatsValues, side: StatsFileSide): number {
  const money = side === 'earned' ? v.earned : v.spent;
  return v.viewable ? round6((money * 1000) / v.viewable) : 0;
}

type AnswerRow = StatsValues & { key: string; name?: string | undefined };

function fileRow(row: AnswerRow, keyColumn: string, side: StatsFileSide, named: boolean): ReportRow {
  const v = row;
  const out: ReportRow = { [keyColumn]: row.key };
  if (named) out.name = row.name ?? null;
  for (const column of statsFileColumns(side)) {
    out[column] = column === 'vcpm' ? vcpm(v, side) : (v[column as keyof StatsValues] ?? null);
  }
  return out;
}

async function* chunksOf(rows: ReportRow[]): AsyncIterable<ReportRow[]> {
  for (let at = 0; at < rows.length; at += CHUNK) yield rows.slice(at, at + CHUNK);
}

export interface StatsFileRequest {
  /** What the file is about, for its name: `campaign-5`, `platform`. */
  what: string;
  /** The breakdown: the key column's name. */
  group: string;
  range: { from: string; to: string };
  side: StatsFileSide;
  format: StatsFileFormat;
}

/**
 * A statistics answer as a CSV or XLSX file (the reports' streamed writers): the key column, `name` where
 * the answer names its keys (the second tree's sites and campaigns), the statsFileColumns of the side, a
 * row per answer row and a last `total` row.
 */
export function statsFile(
  answer: { rows: AnswerRow[]; total: StatsValues },
  req: Pick<StatsFileRequest, 'group' | 'side' | 'format'>,
): Readable {
  const keyColumn = req.group;
  const named = answer.rows.some((r) => r.name !== undefined);
  const columns: ReportColumn[] = [
    { key: keyColumn, kind: 'text' },
    ...(named ? [{ key: 'name', kind: 'text' as const }] : []),
    ...statsFileColumns(req.side).map((key) => ({ key, kind: 'money' as const })),
  ];
  const rows = [
    ...answer.rows.map((r) => fileRow(r, keyColumn, req.side, named)),
    fileRow({ ...answer.total, key: 'total' }, keyColumn, req.side, named),
  ];
  return req.format === 'csv' ? csvFile(columns, chunksOf(rows)) : xlsxFile(columns, chunksOf(rows));
}

/** Sends the answer as a file download with its name (statsFileName). */
export function sendStatsFile(
  reply: FastifyReply,
  answer: { rows: AnswerRow[]; total: StatsValues },
  req: StatsFileRequest,
) {
  return reply
    .header('content-type', contentTypes[req.format])
    .header(
      'content-disposition',
      `attachment; filename="${statsFileName(req.what, req.group, req.range, req.format)}"`,
    )
    .header('cache-control', 'no-store')
    .send(statsFile(answer, req));
}
