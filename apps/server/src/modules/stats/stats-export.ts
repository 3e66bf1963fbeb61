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
import { type AppAbility, subject } from '@adp/permissions';
import type { FastifyReply } from 'fastify';
import type { NamesRepository } from '../names/names.repository.ts';
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

/** Rows in memory as the chunks the file writers read, CHUNK at a time. */
export async function* chunksOf(rows: ReportRow[]): AsyncIterable<ReportRow[]> {
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
  const rows = [
    ...answer.rows.map((r) => fileRow(r, keyColumn, req.side, named)),
    fileRow({ ...answer.total, key: 'total' }, keyColumn, req.side, named),
  ];
  return keyedFile(keyColumn, named, statsFileColumns(req.side), rows, req.format);
}

/** A statistics file's writer: the key column, `name` when the rows are named, then the value columns. */
function keyedFile(
  keyColumn: string,
  named: boolean,
  valueColumns: readonly string[],
  rows: ReportRow[],
  format: StatsFileFormat,
): Readable {
  const columns: ReportColumn[] = [
    { key: keyColumn, kind: 'text' },
    ...(named ? [{ key: 'name', kind: 'text' as const }] : []),
    ...valueColumns.map((key) => ({ key, kind: 'money' as const })),
  ];
  return format === 'csv' ? csvFile(columns, chunksOf(rows)) : xlsxFile(columns, chunksOf(rows));
}

/** The id groups a file names, with the entity type its names are read as. */
const namedGroups = {
  site: ['sites', 'Site'],
  widget: ['widgets', 'Widget'],
  creative: ['banners', 'Banner'],
  campaign: ['campaigns', 'Campaign'],
} as const;

/**
 * The answer with the names of its site, widget, creative or campaign keys, as the screens show them:
 * only the names of what the viewer may read (an advertiser's file by site keeps the sites' ids alone, as
 * its screen does); the key column keeps the id. Other groups, and answers named already (the second
 * tree's), are returned as they are.
 */
export async function withNames<A extends { rows: AnswerRow[]; total: StatsValues }>(
  names: Pick<NamesRepository, 'sites' | 'widgets' | 'banners' | 'campaigns'>,
  ability: AppAbility,
  group: string,
  answer: A,
): Promise<A> {
  const named = namedGroups[group as keyof typeof namedGroups];
  if (!named || answer.rows.some((r) => r.name !== undefined)) return answer;
  const [lookup, type] = named;
  const ids = [...new Set(answer.rows.map((r) => r.key).filter((key) => /^\d+$/.test(key)))].map(Number);
  if (ids.length === 0) return answer;
  const readable = new Map<string, string>();
  for (const row of await names[lookup](ids))
    if (ability.can('read', subject(type, { user_id: String(row.userId) })))
      readable.set(String(row.id), row.name);
  if (readable.size === 0) return answer;
  return { ...answer, rows: answer.rows.map((r) => ({ ...r, name: readable.get(r.key) })) };
}

/** A statistics file as a download, named by statsFileName. */
function sendFile(reply: FastifyReply, file: Readable, req: Omit<StatsFileRequest, 'side'>) {
  return reply
    .header('content-type', contentTypes[req.format])
    .header(
      'content-disposition',
      `attachment; filename="${statsFileName(req.what, req.group, req.range, req.format)}"`,
    )
    .header('cache-control', 'no-store')
    .send(file);
}

/**
 * Rows that are not statistics (a click list: one row a click) as a download with a statistics file's
 * name and headers, in the columns given, chunk by chunk.
 */
export function sendRowsFile(
  reply: FastifyReply,
  columns: readonly ReportColumn[],
  chunks: AsyncIterable<ReportRow[]>,
  req: Omit<StatsFileRequest, 'side'>,
) {
  const file = req.format === 'csv' ? csvFile(columns, chunks) : xlsxFile(columns, chunks);
  return sendFile(reply, file, req);
}

/** Sends the answer as a file download with its name (statsFileName). */
export function sendStatsFile(
  reply: FastifyReply,
  answer: { rows: AnswerRow[]; total: StatsValues },
  req: StatsFileRequest,
) {
  return sendFile(reply, statsFile(answer, req), req);
}

/**
 * Statistics whose values are not the delivery's (a DSP partner's requests and wins, a Prebid partner's
 * bids) as a file: the key column named after the breakdown, `name` where the answer names its keys, the
 * given value columns in the order of the screen's table, a row per answer row and a last `total` row.
 * The same name, headers and writers as sendStatsFile's.
 */
export function sendColumnsFile<V extends Record<string, number>>(
  reply: FastifyReply,
  answer: { rows: (V & { key: string; name?: string | undefined })[]; total: V },
  columns: readonly (keyof V & string)[],
  req: Omit<StatsFileRequest, 'side'>,
) {
  const named = answer.rows.some((r) => r.name !== undefined);
  const rowOf = (r: V, key: string, name: string | undefined): ReportRow => {
    const out: ReportRow = { [req.group]: key };
    if (named) out.name = name ?? null;
    for (const c of columns) out[c] = r[c] ?? null;
    return out;
  };
  const rows = [...answer.rows.map((r) => rowOf(r, r.key, r.name)), rowOf(answer.total, 'total', undefined)];
  return sendFile(reply, keyedFile(req.group, named, columns, rows, req.format), req);
}
