// Issue 24, item 7: nothing secret echoed. The MCP Inspector script names the key by its prefix
// only, even where the Inspector repeats its command line (the Authorization header) in an error;
// a PostgreSQL URL is printed without its password, in the user part or the query.
import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { printableDatabase } from '../../src/settings';

const script = join(import.meta.dirname, '..', '..', 'scripts', 'inspect-mcp.mjs');
const key = `abk_AbCdEfGh1234_${'s'.repeat(43)}`;

/** A stand-in for npx that, like a failing Inspector, repeats its whole command line. */
function echoingNpx(): string {
  const folder = mkdtempSync(join(tmpdir(), 'tessera-npx-'));
  const npx = join(folder, 'npx');
  writeFileSync(npx, '#!/bin/sh\necho "could not connect: $*" >&2\nexit 1\n');
  chmodSync(npx, 0o755);
  return folder;
}

function inspect(args: string[], env: Record<string, string>): Promise<{ code: number; output: string }> {
  const path = `${echoingNpx()}${delimiter}${process.env.PATH}`;
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, '--url', 'https://localhost:9/mcp', ...args],
      { env: { ...process.env, PATH: path, ...env }, timeout: 30_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number(error.code ?? 1) : 0, output: stdout + stderr }),
    );
  });
}

describe('npm run inspect:mcp', () => {
  it.each([
    ['--key', ['--key', key], {}],
    ['TESSERA_KEY', [], { TESSERA_KEY: key }],
  ])('with the key from %s prints its prefix, never the key', async (_from, args, env) => {
    const run = await inspect(args, env);
    expect(run.code).toBe(1);
    // The Inspector was reached with the key, and what it said is shown with the key masked.
    expect(run.output).toContain('could not connect');
    expect(run.output).toContain('Authorization: Bearer abk_AbCdEfGh1234…');
    expect(run.output).not.toContain(key);
    expect(run.output).not.toContain('s'.repeat(43));
  });
});

describe('a PostgreSQL URL as printed', () => {
  it('leaves the password out, in the user part and in the query', () => {
    expect(printableDatabase('postgres://tessera:hunter2@db.example.org:5432/events')).toBe(
      'postgres://tessera:***@db.example.org:5432/events',
    );
    const printed = printableDatabase(
      'postgresql://tessera@db.example.org/events?password=hunter2&sslmode=require',
    );
    expect(printed).not.toContain('hunter2');
    expect(printed).toContain('sslmode=require');
  });
});
