import { Readable } from 'node:stream';
import type { ReportColumn, ReportRow } from '@adp/contract';
import { stringify } from 'csv-stringify/sync';
import { Zip, ZipDeflate } from 'fflate';

/**
 * A spreadsheet would run a text cell starting with one of these as a formula (CSV injection): such text
 * (a site's title is anyone's input) is written with a leading apostrophe, as OWASP recommends.
 */
const formulaStart = /^[=+\-@\t\r]/;

function csvValue(value: ReportRow[string], column: ReportColumn): string | number {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string' && column.kind === 'text' && formulaStart.test(value)) return `'${value}`;
  return value;
}

/**
 * A report as a CSV file (RFC 4180, UTF-8 with a byte order mark, a header row of the columns' keys),
 * pulled chunk by chunk: a chunk of rows is read only when the answer's reader wants more, so memory holds
 * about one chunk. The mark makes Excel read the file as UTF-8 (without it, a Cyrillic or accented title
 * opens garbled); CSV readers skip it (csv-parse `bom`, Python's `utf-8-sig`).
 */
export function csvFile(columns: readonly ReportColumn[], chunks: AsyncIterable<ReportRow[]>): Readable {
  async function* lines() {
    yield `\uFEFF${stringify([columns.map((c) => c.key)])}`;
    for await (const rows of chunks) {
      yield stringify(rows.map((row) => columns.map((c) => csvValue(row[c.key] ?? null, c))));
    }
  }
  return Readable.from(lines(), { objectMode: false });
}

const xmlEscapes: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' };
/** Whether a UTF-16 code unit may stand in XML 1.0 text (tab, newline, return, and from space on). */
const xmlAllowed = (code: number) =>
  code === 0x9 || code === 0xa || code === 0xd || (code >= 0x20 && code !== 0xfffe && code !== 0xffff);

/** Text as XML: escaped, without the control characters XML 1.0 cannot carry. */
const xmlText = (text: string) => {
  let clean = text;
  for (let i = 0; i < text.length; i += 1) {
    if (!xmlAllowed(text.charCodeAt(i))) {
      clean = [...text].filter((c) => xmlAllowed(c.charCodeAt(0))).join('');
      break;
    }
  }
  return clean.replace(/[&<>"]/g, (c) => xmlEscapes[c] ?? c);
};

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

function xlsxCell(value: ReportRow[string], ref: string): string {
  if (value === null || value === undefined || value === '') return '';
  // numbers as numbers; text (ids included, so long ids keep every digit) as inline strings: no shared
  // strings table to hold in memory, and a text cell is never run as a formula
  if (typeof value === 'number') return `<c r="${ref}"><v>${value}</v></c>`;
  return `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
}

function xlsxRow(values: (ReportRow[string] | undefined)[], index: number): string {
  const r = index + 1;
  return `<row r="${r}">${values.map((v, i) => xlsxCell(v ?? null, `${columnName(i)}${r}`)).join('')}</row>`;
}

/** Excel's rows per sheet, the header included: longer reports go on to the next sheet. */
export const XLSX_SHEET_ROWS = 1_048_576;

const sheetHead =
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n' +
  '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>';
const sheetTail = '</sheetData></worksheet>';

function workbookFiles(sheets: number): Record<string, string> {
  const range = Array.from({ length: sheets }, (_, i) => i + 1);
  const head = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
  return {
    '[Content_Types].xml': `${head}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>${range
      .map(
        (n) =>
          `<Override PartName="/xl/worksheets/sheet${n}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
      )
      .join('')}</Types>`,
    '_rels/.rels': `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    'xl/workbook.xml': `${head}<workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><sheets>${range
      .map((n) => `<sheet name="Report${n > 1 ? ` ${n}` : ''}" sheetId="${n}" r:id="rId${n}"/>`)
      .join('')}</sheets></workbook>`,
    'xl/_rels/workbook.xml.rels': `${head}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${range
      .map(
        (n) =>
          `<Relationship Id="rId${n}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/worksheet" Target="worksheets/sheet${n}.xml"/>`,
      )
      .join(
        '',
      )}<Relationship Id="rId${sheets + 1}" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
    'xl/styles.xml': `${head}<styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><fonts count="1"><font><sz val="11"/><name val="Calibri"/></font></fonts><fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills><borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders><cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs><cellXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/></cellXfs></styleSheet>`,
  };
}

/**
 * A report as an XLSX workbook (Office Open XML), streamed: the sheet's rows are deflated into the ZIP as
 * the chunks arrive (fflate's streaming Zip), so memory holds about one chunk and the compressor's window.
 * The header row is the columns' keys; numbers are number cells, everything else inline text.
 */
export function xlsxFile(
  columns: readonly ReportColumn[],
  chunks: AsyncIterable<ReportRow[]>,
  sheetRows = XLSX_SHEET_ROWS,
): Readable {
  async function* bytes() {
    const out: Uint8Array[] = [];
    let failure: Error | null = null;
    const zip = new Zip((err, data) => {
      if (err) failure = err;
      else out.push(data);
    });
    const encoder = new TextEncoder();
    const header = columns.map((c) => c.key);
    let sheets = 0;
    let sheet: ZipDeflate | null = null;
    let row = 0;
    const open = () => {
      sheets += 1;
      sheet = new ZipDeflate(`xl/worksheets/sheet${sheets}.xml`, { level: 6 });
      zip.add(sheet);
      sheet.push(encoder.encode(sheetHead + xlsxRow(header, 0)));
      row = 1;
    };
    const drain = function* () {
      if (failure) throw failure;
      yield* out.splice(0);
    };
    open();
    for await (const rows of chunks) {
      let xml = '';
      for (const r of rows) {
        if (row >= sheetRows) {
          (sheet as ZipDeflate | null)?.push(encoder.encode(xml + sheetTail), true);
          xml = '';
          open();
        }
        xml += xlsxRow(
          columns.map((c) => r[c.key] ?? null),
          row,
        );
        row += 1;
      }
      (sheet as ZipDeflate | null)?.push(encoder.encode(xml));
      yield* drain();
    }
    (sheet as ZipDeflate | null)?.push(encoder.encode(sheetTail), true);
    for (const [name, text] of Object.entries(workbookFiles(sheets))) {
      const file = new ZipDeflate(name, { level: 6 });
      zip.add(file);
      file.push(encoder.encode(text), true);
    }
    zip.end();
    yield* drain();
  }
  return Readable.from(bytes(), { objectMode: false });
}

/**
 * The same rows, with the first chunk already read: whatever fails on the first read (the query itself)
 * fails here, before the caller starts the file, and is answered as an error instead of a cut-off file.
 */
export async function primed<T>(chunks: AsyncGenerator<T>): Promise<AsyncGenerator<T>> {
  const first = await chunks.next();
  return (async function* () {
    if (first.done) return;
    yield first.value;
    yield* chunks;
  })();
}
