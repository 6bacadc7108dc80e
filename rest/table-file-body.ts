// A TableFile (core/platform/pipeline/table-file.ts) as the bytes of its format, made page by page:
// CSV for spreadsheets (UTF-8 with a byte-order mark, CRLF, a header row, every cell quoted, and a
// cell that a spreadsheet would run as a formula made text), or JSON ({ head…, data: [rows], tail… }).
// The REST answer streams it; `tessera export` writes it to a file or stdout.
import { stringify } from 'csv-stringify/sync';
import { cellsOf, type TableColumn, type TableFile } from '../core/platform/pipeline/table-file';

/** What starts a formula in a spreadsheet (OWASP CSV injection; NUL after ASVS 5 V1.2.10). */
const formulaStart = /^[=+\-@\t\r\0]/;

/**
 * A text cell starting like a formula gets a leading apostrophe, which spreadsheets read as "this
 * is text". Number columns are the service's own digits (a refund's -12.50 stays a number).
 */
export function neutralised(columns: TableColumn[], cells: string[]): string[] {
  return cells.map((cell, i) =>
    columns[i]!.kind !== 'number' && formulaStart.test(cell) ? `'${cell}` : cell,
  );
}

const csvOptions = { quoted: true, record_delimiter: '\r\n' } as const;

/** Rows written so far, for a caller that reports them. */
export interface Written {
  rows: number;
}

async function* csvOf(file: TableFile, written: Written): AsyncGenerator<string> {
  const { columns } = file;
  yield `\uFEFF${stringify([columns.map((c) => c.name)], csvOptions)}`;
  for await (const rows of file.pages()) {
    written.rows += rows.length;
    yield stringify(
      rows.map((item) => neutralised(columns, cellsOf(columns, item))),
      csvOptions,
    );
  }
}

async function* jsonOf(file: TableFile, written: Written): AsyncGenerator<string> {
  yield `${JSON.stringify(file.head).slice(0, -1)},"data":[`;
  for await (const rows of file.pages()) {
    yield rows.map((row, i) => `${written.rows + i > 0 ? ',' : ''}${JSON.stringify(row)}`).join('');
    written.rows += rows.length;
  }
  yield `],${JSON.stringify(file.tail(written.rows)).slice(1)}`;
}

/** The file's text, piece by piece (a page of rows a piece). */
export function tableFileBody(file: TableFile, written: Written = { rows: 0 }): AsyncGenerator<string> {
  if (file.format === 'csv') return csvOf(file, written);
  if (file.format === 'json') return jsonOf(file, written);
  throw new Error(`No writer for the file format ${file.format}.`);
}
