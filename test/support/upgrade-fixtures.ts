// The data folders of earlier tagged versions (test/fixtures/upgrade/<tag>/, each made by that
// version's own code with scripts/make-upgrade-fixture.mjs): their tags, what each fixture.json
// says of its folder, and a copy of one in a temporary folder to start or back up.
import {
  copyFileSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';

const fixturesDir = join(import.meta.dirname, '..', 'fixtures', 'upgrade');

/** The tagged versions a fixture is kept for. */
export const fixtureTags = readdirSync(fixturesDir).filter((name) =>
  statSync(join(fixturesDir, name)).isDirectory(),
);

export interface Fixture {
  tag: string;
  secretKey: string;
  demoKey: string;
  database: string;
  keyFiles: string[];
  migrations: string[];
  workspaceId: string;
  key: string;
  eventId: string;
  webhook: { webhookId: string; secret: string };
}

/** The fixture's data folder, copied to a temporary one (the database unzipped). */
export function copyFixture(tag: string): { dir: string; fixture: Fixture } {
  const from = join(fixturesDir, tag);
  const fixture = JSON.parse(readFileSync(join(from, 'fixture.json'), 'utf8')) as Fixture;
  const dir = mkdtempSync(join(tmpdir(), `tessera-upgrade-${tag}-`));
  const db = readFileSync(join(from, fixture.database));
  writeFileSync(join(dir, 'tessera.db'), fixture.database.endsWith('.gz') ? gunzipSync(db) : db, {
    mode: 0o600,
  });
  for (const file of fixture.keyFiles) {
    mkdirSync(join(dir, file, '..'), { recursive: true, mode: 0o700 });
    copyFileSync(join(from, 'data', file), join(dir, file));
  }
  return { dir, fixture };
}
