// The rows the plan makes of the file's many items (an order with its tickets and their add-ons),
// made once, while the file is checked, and kept as JSON text compressed a block at a time until
// the writer takes them back in batches: never every planned row held at once, never planned twice.
import { CompressedLines } from './compressed-lines';
import type { ImportTable, Planned, PlannedRow } from './planned-rows';

/** A planned row of a table, or the whole set of rows a parent has in a table. */
type Entry =
  | ['row', ImportTable, PlannedRow, string, PlannedRow | null]
  | ['set', ImportTable, string, string, PlannedRow[]];

export interface RowSet {
  parentColumn: string;
  byParent: Map<string, PlannedRow[]>;
}

/** The rows of some items, by table. */
export interface RowBatch {
  tables: Map<ImportTable, Planned[]>;
  sets: Map<ImportTable, RowSet>;
}

export class StoredRows {
  /** One line an item: its entries. */
  private readonly lines = new CompressedLines(1000);
  private item: Entry[] = [];

  add(table: ImportTable, row: PlannedRow, path: string, insertOnly?: PlannedRow): void {
    this.item.push(['row', table, row, path, insertOnly ?? null]);
  }

  addSet(table: ImportTable, parentColumn: string, parentId: string, rows: PlannedRow[]): void {
    this.item.push(['set', table, parentColumn, parentId, rows]);
  }

  /** Closes the item whose rows were added since the last call. */
  endItem(): void {
    if (this.item.length === 0) return;
    this.lines.add(JSON.stringify(this.item));
    this.item = [];
  }

  /** The rows back, `itemsPerBatch` items at a time. */
  *batches(itemsPerBatch: number): Generator<RowBatch> {
    this.endItem();
    let batch = emptyBatch();
    let items = 0;
    for (const line of this.lines) {
      for (const entry of JSON.parse(line) as Entry[]) {
        if (entry[0] === 'row') {
          const [, table, row, path, insertOnly] = entry;
          const rows = batch.tables.get(table) ?? [];
          if (rows.length === 0) batch.tables.set(table, rows);
          rows.push(insertOnly === null ? { row, path } : { row, path, insertOnly });
        } else {
          const [, table, parentColumn, parentId, rows] = entry;
          const set = batch.sets.get(table) ?? { parentColumn, byParent: new Map<string, PlannedRow[]>() };
          batch.sets.set(table, set);
          set.byParent.set(parentId, rows);
        }
      }
      if (++items === itemsPerBatch) {
        yield batch;
        batch = emptyBatch();
        items = 0;
      }
    }
    if (items > 0) yield batch;
  }
}

const emptyBatch = (): RowBatch => ({ tables: new Map(), sets: new Map() });
