// Runs once before the test processes start (they inherit the environment set here). The CA is
// made anew each run into .tmp/ (ignored by git) and left there: test processes still ending after
// the run read NODE_EXTRA_CA_CERTS lazily, and a removed file would make Node warn.
// Every temporary folder of the run (data folders, receivers, scratch files; os.tmpdir() reads
// TMPDIR) is made inside one folder removed when the run ends: a test skipped on one store, or
// stopped by a failure, left its folders behind (about fifty a run).
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureBundle } from '../../bin/bundle.mjs';
import { makeStoreTemplates } from './store-template';
import { makeTestCa } from './test-ca';

export default async function setup(): Promise<() => void> {
  // Once a run: vitest runs a global set-up for each project (vitest.config.ts has two), in one process.
  if (process.env.TESSERA_TEST_SCRATCH) return () => {};
  const scratch = mkdtempSync(join(tmpdir(), 'tessera-tests-'));
  process.env.TESSERA_TEST_SCRATCH = scratch;
  // Passable by others: a throwaway PostgreSQL cluster runs as its own user inside it.
  chmodSync(scratch, 0o711);
  process.env.TMPDIR = scratch;
  const dir = join(import.meta.dirname, '..', '..', '.tmp', 'test-ca');
  const files = await makeTestCa(dir);
  process.env.NODE_EXTRA_CA_CERTS = files.caCert;
  process.env.TESSERA_TEST_CA_DIR = dir;
  // Each run's own CPU times (test/support/cpu-time.ts).
  rmSync(join(import.meta.dirname, '..', '..', '.tmp', 'test-cpu.jsonl'), { force: true });
  // The tests that start the real `tessera` command would otherwise each build the bundle.
  await ensureBundle();
  // A migrated store each test server copies (test/support/store-template.ts).
  Object.assign(process.env, await makeStoreTemplates(scratch, process.env.TESSERA_TEST_POSTGRES));
  return () => rmSync(scratch, { recursive: true, force: true });
}
