// The usual list of an event's rows, oldest change first: the keyset columns every changing
// table shares (change_txn, change_seq, updated_utc, created_utc, id).
import type { KeysetColumns } from './paging';

export function keysetOf(table: string): KeysetColumns {
  return {
    txn: `${table}.change_txn`,
    seq: `${table}.change_seq`,
    updated: `${table}.updated_utc`,
    created: `${table}.created_utc`,
    id: `${table}.id`,
  };
}

export function positionOfRow(row: {
  change_txn: number;
  change_seq: number;
  created_utc: string;
  id: string;
}) {
  return { txn: row.change_txn, seq: row.change_seq, created: row.created_utc, id: row.id };
}
