// Runs once before the test processes start (they inherit the environment set here).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestCa } from './test-ca';

export default async function setup(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-test-ca-'));
  const files = await makeTestCa(dir);
  process.env.NODE_EXTRA_CA_CERTS = files.caCert;
  process.env.TESSERA_TEST_CA_DIR = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}
