// Whether a test that makes its own PostgreSQL cluster can run here: it needs the server binaries,
// and says so when it skips without them.
import { missingBinaries, postgresAvailable } from '../../scripts/postgres-cluster.mjs';

export function postgresHere(test: string): boolean {
  const available = postgresAvailable();
  if (!available) console.warn(`Skipping ${test}: ${missingBinaries}`);
  return available;
}
