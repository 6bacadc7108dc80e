// The import row of the bench: `tessera import` of a 50,000-attendee file into a fresh data folder,
// timed as an operator sees it (the whole command), then the same file again (which changes nothing).
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { largeEventFile } from '../test/support/import-files';

export interface ImportFigures {
  attendees: number;
  firstSeconds: number;
  againSeconds: number;
}

export function measureImport(root: string, attendees: number): ImportFigures {
  const dir = mkdtempSync(join(tmpdir(), 'tessera-bench-import-'));
  const bin = join(root, 'bin', 'tessera.mjs');
  const run = (args: string[]) =>
    execFileSync(process.execPath, [bin, ...args, '--data', dir], {
      env: { ...process.env, TESSERA_LOG_LEVEL: 'silent' },
      maxBuffer: 64 * 1024 * 1024,
    }).toString();
  try {
    const { workspaceId } = JSON.parse(run(['workspace', 'create', '--name', 'Import bench'])) as {
      workspaceId: string;
    };
    const file = join(dir, 'import.json');
    writeFileSync(file, JSON.stringify(largeEventFile(attendees, 'bench-import')));
    const timed = () => {
      const started = performance.now();
      run(['import', '--workspace', workspaceId, file]);
      return (performance.now() - started) / 1000;
    };
    return { attendees, firstSeconds: timed(), againSeconds: timed() };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
