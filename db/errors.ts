// What a database error means, for the few errors core turns into answers. Each engine says it
// its own way; this is the one place that reads them.

/**
 * The columns of the unique constraint an error violated, as "table.column, table.column"
 * (SQLite's wording), or null when the error is something else.
 */
export function violatedUnique(error: unknown): string | null {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (e?.code !== 'SQLITE_CONSTRAINT_UNIQUE' && e?.code !== 'SQLITE_CONSTRAINT_PRIMARYKEY') return null;
  return /UNIQUE constraint failed: (.+)$/.exec(String(e.message))?.[1] ?? '';
}

/**
 * The rule of the schema an error broke (a unique key, a check, a reference, a required column), in
 * words, or null when the error is something else.
 */
export function violatedConstraint(error: unknown): string | null {
  const e = error as { code?: unknown; message?: unknown } | null;
  if (typeof e?.code !== 'string' || !e.code.startsWith('SQLITE_CONSTRAINT')) return null;
  const message = String(e.message);
  if (e.code === 'SQLITE_CONSTRAINT_FOREIGNKEY') return 'it refers to something that is not there';
  return message.replace(/ constraint failed: /, ' rule: ');
}
