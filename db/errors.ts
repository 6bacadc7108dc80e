// What a database error means, for the few errors core turns into answers. Each engine says it
// its own way (SQLite in its message, PostgreSQL in SQLSTATE codes and fields); this is the one
// place that reads them.

interface EngineError {
  code?: unknown;
  message?: unknown;
  /** PostgreSQL's: the table, the constraint, and "Key (a, b)=(…) already exists." */
  table?: unknown;
  constraint?: unknown;
  column?: unknown;
  detail?: unknown;
}

/** PostgreSQL's columns of a unique violation, in SQLite's wording: "table.a, table.b". */
function postgresUniqueColumns(e: EngineError): string {
  const columns = /^Key \((.+?)\)=/.exec(String(e.detail ?? ''))?.[1];
  if (!columns) return '';
  return columns
    .split(',')
    .map((c) => `${String(e.table)}.${c.trim()}`)
    .join(', ');
}

/**
 * The columns of the unique constraint an error violated, as "table.column, table.column"
 * (SQLite's wording), or null when the error is something else.
 */
export function violatedUnique(error: unknown): string | null {
  const e = error as EngineError | null;
  if (e?.code === '23505') return postgresUniqueColumns(e);
  if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
  return /UNIQUE constraint failed: (.+)$/.exec(String(e.message))?.[1] ?? '';
}

/**
 * The rule of the schema an error broke (a unique key, a check, a reference, a required column), in
 * words, or null when the error is something else.
 */
export function violatedConstraint(error: unknown): string | null {
  const e = error as EngineError | null;
  switch (e?.code) {
    case '23503':
      return 'it refers to something that is not there';
    case '23505':
      return `UNIQUE rule: ${postgresUniqueColumns(e)}`;
    case '23514':
      return `CHECK rule: ${String(e.constraint)}`;
    case '23502':
      return `NOT NULL rule: ${String(e.table)}.${String(e.column)}`;
  }
  if (typeof e?.code !== 'string' || !e.code.startsWith('SQLITE_CONSTRAINT')) return null;
  const message = String(e.message);
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'it refers to something that is not there';
  return message.replace(/ constraint failed: /, ' rule: ');
}

/** Whether a statement named a row that is not there (a foreign key found nothing to refer to). */
export function violatedReference(error: unknown): boolean {
  const code = (error as EngineError | null)?.code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}

/**
 * Whether the database ended the transaction only because of another one running at the same time
 * (PostgreSQL's deadlock victim, 40P01, or serialisation failure, 40001): it may simply run again.
 */
export function lostToConcurrentWrite(error: unknown): boolean {
  const code = (error as EngineError | null)?.code;
  return code === '40P01' || code === '40001';
}

/**
 * Whether SQLite refused a statement because another connection holds the write lock (or the log is
 * being recovered): nothing was done, and it may run again once the lock is free.
 */
export function heldByAnotherWriter(error: unknown): boolean {
  const code = (error as EngineError | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_BUSY');
}

/**
 * An error the write queue treats as PostgreSQL's serialisation failure (40001): the transaction is
 * rolled back and run again whole. For a write that finds, under its locks, that another one
 * committed a row it should have locked first (core/crew/shift-places.ts).
 */
export function runAgain(why: string): Error {
  return Object.assign(new Error(`run again: ${why}`), { code: '40001', askedToRunAgain: true });
}

/** Whether the error is runAgain's: a write that found it must run again, not a lock taken out of order. */
export function askedToRunAgain(error: unknown): boolean {
  return (error as { askedToRunAgain?: boolean } | null)?.askedToRunAgain === true;
}
