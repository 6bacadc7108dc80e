// npm run test:postgres [-- vitest arguments]: the whole suite against PostgreSQL. Starts a
// throwaway cluster (scripts/postgres-cluster.mjs: the machine's initdb and pg_ctl), runs vitest
// with TESSERA_TEST_POSTGRES naming it (each test's data folder gets a database of its own there),
// then stops the cluster and removes it, whatever the outcome.
import { spawnSync } from 'node:child_process';
import { missingBinaries, postgresAvailable, startCluster } from './postgres-cluster.mjs';

if (!postgresAvailable()) {
  process.stderr.write(`${missingBinaries}\n`);
  process.exit(2);
}
const cluster = await startCluster();
let status = 1;
try {
  const run = spawnSync('npx', ['vitest', 'run', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, TESSERA_TEST_POSTGRES: cluster.url },
  });
  status = run.status ?? 1;
} finally {
  cluster.stop();
}
process.exit(status);
