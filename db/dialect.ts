// What differs between the two stores, kept here: which one a database is, and how the schema the
// migrations write in SQLite's terms is said to PostgreSQL. The migrations stay one text for both:
// on PostgreSQL a plugin turns 64-bit SQLite integers into bigint, SQLite's 8-byte real into double
// precision, and an autoincrementing key into an identity column.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations work on the database as it is then, not on the Database type.
import {
  ColumnDefinitionNode,
  DataTypeNode,
  type Expression,
  GeneratedNode,
  type Kysely,
  type KyselyPlugin,
  OperationNodeTransformer,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  PostgresAdapter,
  type QueryResult,
  type RawBuilder,
  type RootOperationNode,
  type SelectQueryBuilder,
  sql,
  type UnknownRow,
} from 'kysely';

export type Store = 'sqlite' | 'postgres';

/** A database location is a PostgreSQL URL or a SQLite file. */
export function storeOf(location: string): Store {
  return /^postgres(ql)?:\/\//i.test(location) ? 'postgres' : 'sqlite';
}

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

class PostgresSchema extends OperationNodeTransformer {
  protected override transformDataType(node: DataTypeNode): DataTypeNode {
    // SQLite's integer holds 64 bits (money in minor units, change positions); so does bigint.
    if (node.dataType === 'integer') return DataTypeNode.create('bigint');
    // SQLite's real is 8 bytes; PostgreSQL's real only 4.
    if (node.dataType === 'real') return DataTypeNode.create('double precision');
    return node;
  }

  protected override transformColumnDefinition(node: ColumnDefinitionNode): ColumnDefinitionNode {
    const column = super.transformColumnDefinition(node);
    if (!column.autoIncrement) return column;
    return ColumnDefinitionNode.cloneWith(column, {
      autoIncrement: false,
      generated: GeneratedNode.create({ byDefault: true, identity: true }),
    });
  }
}

/** The migrations' schema in PostgreSQL's terms (see the top of this file). */
export const postgresSchema: KyselyPlugin = {
  transformQuery: (args: PluginTransformQueryArgs): RootOperationNode =>
    new PostgresSchema().transformNode(args.node),
  transformResult: async (args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> => args.result,
};

/**
 * A trigger that runs one statement after a change (`when`: `AFTER INSERT ON t`, `AFTER UPDATE OF a,
 * b ON t`, ...). SQLite says it inline; PostgreSQL needs a function, made here per trigger.
 */
export async function createTrigger(
  db: Kysely<any>,
  trigger: { name: string; when: string; statement: string },
): Promise<void> {
  const { name, when, statement } = trigger;
  if (!isPostgres(db)) {
    await sql.raw(`CREATE TRIGGER ${name} ${when} BEGIN ${statement} END`).execute(db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${statement} RETURN NULL; END $$`,
    )
    .execute(db);
  await sql.raw(`CREATE TRIGGER ${name} ${when} FOR EACH STATEMENT EXECUTE FUNCTION ${name}()`).execute(db);
}

/**
 * The text values of a JSON array column as rows with a `value` column, for a FROM list:
 * SQLite's json_each, PostgreSQL's json_array_elements_text.
 */
export function jsonArrayValues(db: Kysely<any>, column: string, alias: string): RawBuilder<unknown> {
  return isPostgres(db)
    ? sql`json_array_elements_text(${sql.ref(column)}::json) ${sql.raw(alias)}(value)`
    : sql`json_each(${sql.ref(column)}) ${sql.raw(alias)}`;
}

/** The later of two non-null values (SQLite's two-argument max, PostgreSQL's greatest). */
export function later<T>(a: Expression<T>, b: Expression<T>): RawBuilder<T> {
  return sql<T>`case when ${a} > ${b} then ${a} else ${b} end`;
}

export interface SchemaColumn {
  name: string;
  /** As the store names it (integer on SQLite, bigint on PostgreSQL). */
  type: string;
  /** Declared NOT NULL or part of the primary key. */
  notNull: boolean;
}

/** Every table of the schema (the migrations' bookkeeping too) with its columns, in order. */
export async function schemaColumns(db: Kysely<any>): Promise<Map<string, SchemaColumn[]>> {
  const rows = isPostgres(db)
    ? await sql<{ table: string; name: string; type: string; notNull: boolean }>`
        select table_name as "table", column_name as name, data_type as type, is_nullable = 'NO' as "notNull"
        from information_schema.columns
        where table_schema = current_schema() order by table_name, ordinal_position`.execute(db)
    : await sql<{ table: string; name: string; type: string; notNull: number }>`
        select m.name as "table", c.name as name, lower(c.type) as type, (c."notnull" = 1 or c.pk > 0) as "notNull"
        from sqlite_master m, pragma_table_info(m.name) c
        where m.type = 'table' and m.name not like 'sqlite_%' order by m.name, c.cid`.execute(db);
  const columns = new Map<string, SchemaColumn[]>();
  for (const { table, name, type, notNull } of rows.rows)
    columns.set(table, [...(columns.get(table) ?? []), { name, type, notNull: Boolean(notNull) }]);
  return columns;
}

/**
 * A select whose rows the transaction is about to claim: on PostgreSQL it locks them and skips rows
 * another transaction holds, so two processes never take one row. SQLite has one writer at a time.
 */
export function claiming<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return isPostgres(db) ? (qb.forUpdate().skipLocked() as QB) : qb;
}

/**
 * A select of a row the transaction is about to change or remove, after checking what depends on
 * it: on PostgreSQL it locks the row (waiting for a writer that references it to finish), so the
 * check sees every reference. SQLite has one writer at a time.
 */
export function lockingRow<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return isPostgres(db) ? (qb.forUpdate() as QB) : qb;
}

/**
 * A select of a row the transaction is about to change (not its key) after checking the change
 * against the row's other columns: on PostgreSQL it takes, at the read, the lock the update takes
 * anyway (FOR NO KEY UPDATE), so another change of the row waits and then checks against this one.
 * Rows that only refer to it are still written meanwhile. SQLite has one writer at a time.
 */
export function changingRow<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return isPostgres(db) ? (qb.forNoKeyUpdate() as QB) : qb;
}

/**
 * A select of a row the transaction is about to write rows referring to: on PostgreSQL it takes,
 * at the read, the lock their foreign key takes anyway (FOR KEY SHARE), so a removal of the row
 * waits for this transaction, or has removed it and the select finds nothing (where the insert
 * would have failed on the key). SQLite has one writer at a time.
 */
export function referencedRow<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return isPostgres(db) ? (qb.forKeyShare() as QB) : qb;
}

/**
 * A select of a row whose columns the transaction's write is checked against (a room's capacity,
 * which a session's may not exceed): on PostgreSQL FOR SHARE, so a change of the row (changingRow)
 * or its removal (lockingRow) waits for this transaction, or is waited for and then read. Writes
 * checked against one row still run at once. SQLite has one writer at a time.
 */
export function sharedRow<QB extends SelectQueryBuilder<any, any, any>>(db: Kysely<any>, qb: QB): QB {
  return isPostgres(db) ? (qb.forShare() as QB) : qb;
}

/**
 * The key of PostgreSQL's advisory lock named by a text (a value or a column's expression): the
 * one way every lock here is named, so a lock taken in one place is the one tested in another.
 */
export function advisoryKey(name: Expression<string> | string): RawBuilder<number> {
  return sql<number>`hashtextextended(${name}, 0)`;
}

/**
 * Takes a lock named by `name` until the transaction ends, without waiting; false when another
 * transaction holds it. PostgreSQL's advisory lock (several processes); on SQLite the transaction
 * already writes alone.
 */
export async function tryTransactionLock(db: Kysely<any>, name: string): Promise<boolean> {
  if (!isPostgres(db)) return true;
  const { rows } = await sql<{ got: boolean }>`
    select pg_try_advisory_xact_lock(${advisoryKey(name)}) as got`.execute(db);
  return rows[0]?.got === true;
}

/** Waits for the lock named by `name` and holds it until the transaction ends (PostgreSQL; see above). */
export async function transactionLock(db: Kysely<any>, name: string): Promise<void> {
  if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${advisoryKey(name)})`.execute(db);
}

/**
 * Runs a page's read with the order taken from an index, not sorted: on PostgreSQL sorting is
 * priced out for that statement (`enable_sort` off in its transaction, then on again). A page's
 * conditions on its place in the list are estimated badly (a row comparison is judged by its first
 * column, and an import writes thousands of rows in one transaction: one change_txn), so the
 * planner hashed the joins over the whole rest of the list and sorted it for every page; a sync of
 * 50,000 attendees took 8 s instead of 1. With sorting priced out it walks the list's index in
 * order and stops at the page's end. Where no index gives the order, it still sorts. SQLite plans
 * these by the index already.
 */
export async function inIndexOrder<T>(db: Kysely<any>, read: () => Promise<T>): Promise<T> {
  if (!isPostgres(db) || !db.isTransaction) return read();
  await sql`set local enable_sort = off`.execute(db);
  // Not in a finally: after a failed read the transaction is aborted, and a statement there would
  // answer that instead of the read's own error.
  const rows = await read();
  await sql`set local enable_sort = on`.execute(db);
  return rows;
}
