// An answer that is a file of rows (an export) rather than one JSON document: the operation
// declares `file` (its formats and their media types) and its handler answers a TableFile. The
// rows come in bounded pages, read as the file is written, so a large file is never held whole;
// REST streams it as an attachment, the CLI writes it, MCP hands an assistant a preview instead.
import type * as v from 'valibot';
import { currencyDecimals } from '../money';
import { multiLineOf, oneLineOf } from '../shown-text';

const mark = Symbol('tableFile');

/** A cell as a file holds it: text, or a number written as it stands (never neutralised as a formula). */
export interface TableColumn {
  /** The item's field, nested fields joined with dots (sponsor.name). */
  name: string;
  /** number: a count or an amount, written as digits; json: a record or list, written as JSON; text: the rest. */
  kind: 'text' | 'number' | 'json';
  /** For an amount: the item's field naming its currency, so it is written with the currency's decimals. */
  currencyField?: string;
}

export interface TableFileParts {
  /** One of the operation's declared formats. */
  format: string;
  fileName: string;
  /** The fields of the JSON answer before its rows (dataset, eventId, exportedUtc, …). */
  head: Record<string, unknown>;
  /** The file's columns, in order: the fields of an item. */
  columns: TableColumn[];
  /** The items, page by page, in the list's order: each call starts from the first row. */
  pages(): AsyncIterable<unknown[]>;
  /** The fields of the JSON answer after its rows, once all are read (total, …). */
  tail(rowsWritten: number): Record<string, unknown>;
  /** What an assistant is handed instead of the file: the first rows, the total and how to get the rest. */
  preview(maxRows: number): Promise<Record<string, unknown>>;
}

export type TableFile = TableFileParts & { readonly [mark]: true };

export function tableFile(parts: TableFileParts): TableFile {
  return { ...parts, [mark]: true };
}

export function isTableFile(value: unknown): value is TableFile {
  return typeof value === 'object' && value !== null && (value as Record<symbol, unknown>)[mark] === true;
}

/** What an operation whose answer is a file declares: its formats, each with its media type. */
export interface FileOutput {
  formats: Readonly<Record<string, string>>;
  /**
   * The answer is one whole file (a DocumentFile, document-file.ts), binary, never JSON: REST
   * answers only its bytes; `output` is what MCP is told of it beside them.
   */
  document?: true;
  /** How its Content-Disposition names it, for the OpenAPI document. */
  fileName?: string;
}

// biome-ignore lint/suspicious/noExplicitAny: walks any valibot schema's public shape.
type AnySchema = v.GenericSchema & { type: string; wrapped?: any; entries?: Record<string, any> };

/**
 * The columns of a list item, from its schema: nested objects flattened with dots, records and
 * lists as JSON, numbers as numbers, the rest as text. amounts names the money fields and the
 * field of their currency.
 */
export function columnsOf(schema: v.GenericSchema, amounts: Record<string, string> = {}): TableColumn[] {
  const columns: TableColumn[] = [];
  const walk = (node: AnySchema, path: string) => {
    let s = node;
    while ((s.type === 'nullable' || s.type === 'optional') && s.wrapped) s = s.wrapped;
    if (s.type === 'object' && s.entries) {
      for (const [key, child] of Object.entries(s.entries)) walk(child, path ? `${path}.${key}` : key);
      return;
    }
    const kind =
      s.type === 'number' ? 'number' : ['record', 'array', 'unknown'].includes(s.type) ? 'json' : 'text';
    const currencyField = amounts[path];
    columns.push(currencyField ? { name: path, kind, currencyField } : { name: path, kind });
  };
  walk(schema as AnySchema, '');
  return columns;
}

/** The value at a dotted path of an item. */
function at(item: unknown, path: string): unknown {
  let value = item;
  for (const key of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

/** Text columns that may run over lines, by the field's own name (the rest are one line). */
const multiLineFields = new Set(['note', 'description', 'summary', 'bio', 'abstract', 'comment', 'footer']);

/** A text cell as written: control characters neutralised (rows kept from before issue 50 may hold them). */
function shownCell(column: TableColumn, text: string): string {
  const field = column.name.slice(column.name.lastIndexOf('.') + 1);
  return multiLineFields.has(field) ? multiLineOf(text) : oneLineOf(text);
}

/**
 * One item as the strings of its cells: an absent or withheld value is empty, an amount has its
 * currency's decimals, a record or list is JSON, true and false are words, text is shown safely.
 */
export function cellsOf(columns: TableColumn[], item: unknown): string[] {
  return columns.map((column) => {
    const value = at(item, column.name);
    if (value === null || value === undefined) return '';
    if (column.kind === 'json') return JSON.stringify(value);
    if (typeof value === 'number' && column.currencyField) {
      const currency = at(item, column.currencyField);
      return typeof currency === 'string' ? value.toFixed(currencyDecimals(currency)) : String(value);
    }
    return typeof value === 'string' ? shownCell(column, value) : String(value);
  });
}
