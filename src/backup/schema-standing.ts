// Where a backed-up or restored database stands against this version's migrations: current,
// behind (the service migrates it forward on start) or ahead (made by a newer Tessera).
import { compareMigrations } from '../../db/migrate';

export interface SchemaStanding {
  schema: 'current' | 'behind' | 'ahead';
  notes: string[];
}

export async function schemaStanding(applied: string[]): Promise<SchemaStanding> {
  const { pending, newer: unknown } = compareMigrations(applied);
  if (unknown.length > 0)
    return {
      schema: 'ahead',
      notes: [
        `The database was migrated by a newer Tessera than this one (${unknown.length} migration(s) this version does not know, e.g. ${unknown[0]}).`,
      ],
    };
  if (pending.length > 0)
    return {
      schema: 'behind',
      notes: [
        `The database is behind this version by ${pending.length} migration(s) (${pending[0]} first); the service migrates it forward when it next starts.`,
      ],
    };
  return { schema: 'current', notes: [] };
}
