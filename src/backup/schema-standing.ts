// Where a backed-up or restored database stands against this version's migrations: current,
// behind (the service migrates it forward on start) or ahead (made by a newer Tessera).
import { migrationProvider } from '../../db/migrations';

export interface SchemaStanding {
  schema: 'current' | 'behind' | 'ahead';
  notes: string[];
}

export async function schemaStanding(applied: string[]): Promise<SchemaStanding> {
  const known = Object.keys(await migrationProvider.getMigrations());
  const done = new Set(applied);
  const unknown = applied.filter((name) => !known.includes(name));
  if (unknown.length > 0)
    return {
      schema: 'ahead',
      notes: [
        `The database was migrated by a newer Tessera than this one (${unknown.length} migration(s) this version does not know, e.g. ${unknown[0]}).`,
      ],
    };
  const pending = known.filter((name) => !done.has(name));
  if (pending.length > 0)
    return {
      schema: 'behind',
      notes: [
        `The database is behind this version by ${pending.length} migration(s) (${pending[0]} first); the service migrates it forward when it next starts.`,
      ],
    };
  return { schema: 'current', notes: [] };
}
