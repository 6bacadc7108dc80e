// The shape of what the plan makes: a row of a table, with the path of the item it came from.
import type { Database } from '../../db/schema';

export type ImportTable = keyof Database;
export type PlannedRow = Record<string, string | number | null>;

export interface Planned {
  row: PlannedRow;
  path: string;
  /** Columns written only when the row is new (counters kept by the service, such as taken). */
  insertOnly?: PlannedRow;
}
