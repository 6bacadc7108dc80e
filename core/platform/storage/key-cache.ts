// Verified keys kept in memory, so the layer every call shares does not look the key up each
// time. What ends a key still ends it on the very next call, in every process: the database moves
// a generation counter whenever a key or its workspace changes (triggers, migration 0015), each
// call reads that one number with a statement compiled once (on PostgreSQL in the statement that
// counts the call, shared-rate-counter.ts), and a new number empties the cache. On SQLite it is
// read at once (db/read-at-once.ts), without waiting for a write in flight to commit: that read
// sees the write's own changes too, but the number only rises, so the one the cache holds means
// nothing changed, committed or not; any other is read again the ordinary way, once the write
// has ended.
// Expiry is compared with the clock on every call, so it needs no invalidation.
import type { Db } from '../../../db/connect';
import { prepare } from '../../../db/prepared';
import type { ApiKeysTable } from '../../../db/schema';
import type { Flag } from '../../../db/values';

/** The columns a verification reads: the key and its workspace. */
export type KeyRow = Pick<
  ApiKeysTable,
  | 'prefix'
  | 'secret_hash'
  | 'scopes'
  | 'legacy_scopes'
  | 'rate_per_minute'
  | 'created_utc'
  | 'expires_utc'
  | 'revoked_utc'
> & { keyId: string; workspaceId: string; keyName: string; workspaceName: string; demonstration: Flag };

export type KeyLookup = { prefix: string } | { keyId: string };

/** Rows found absent are not kept: an unknown prefix is cheap to refuse and must not fill memory. */
const maxKeys = 10_000;

const currentGeneration = prepare<Record<string, never>, { value: number }>((db) =>
  db.selectFrom('key_generation').select('value').where('id', '=', 1),
);

export class KeyCache {
  private generation: number | undefined;
  private readonly rows = new Map<string, KeyRow>();

  /**
   * The key's row, from memory while no key or workspace changed since it was read. `generation`:
   * the generation this call already read (with its call count, shared-rate-counter.ts), else it is
   * read here. Answered at once (no promise) when the row is kept and the generation, given or
   * read at once, is the one it was kept under: the path of nearly every call.
   */
  find(
    db: Db,
    lookup: KeyLookup,
    read: () => Promise<KeyRow | undefined>,
    generation?: number,
  ): KeyRow | undefined | Promise<KeyRow | undefined> {
    // Read at once, the number may be a write's in flight: only the one held says nothing changed.
    const current = generation ?? currentGeneration.atOnce(db, {})?.value;
    if (current !== undefined && current === this.generation) {
      const cached = this.rows.get(nameOf(lookup));
      if (cached) return cached;
    }
    return this.findAfterReading(db, lookup, read, generation);
  }

  /** `given`: the generation the call read with its count; else it is read once the connection is free. */
  private async findAfterReading(
    db: Db,
    lookup: KeyLookup,
    read: () => Promise<KeyRow | undefined>,
    given: number | undefined,
  ): Promise<KeyRow | undefined> {
    const current = given ?? (await currentGeneration.first(db, {}))?.value;
    if (current !== this.generation) {
      this.rows.clear();
      this.generation = current;
    }
    const cached = this.rows.get(nameOf(lookup));
    if (cached) return cached;
    const row = await read();
    if (row) {
      if (this.rows.size >= maxKeys) this.rows.clear();
      this.rows.set(nameOf(lookup), row);
    }
    return row;
  }

  /**
   * The row kept for the key, as last read: it may be out of date (find says whether it is), so it
   * only names the key whose call is counted while the generation is read.
   */
  peek(lookup: KeyLookup): KeyRow | undefined {
    return this.rows.get(nameOf(lookup));
  }
}

const nameOf = (lookup: KeyLookup) => ('keyId' in lookup ? `id:${lookup.keyId}` : `prefix:${lookup.prefix}`);
