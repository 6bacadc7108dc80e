// The dependency direction of docs/architecture.md: src -> rest, mcp -> core -> db, and the packages
// core and db may use. Reads the actual import
// statements of every source file (static, dynamic, type-only and re-exports), so adding an import
// that crosses the rule makes this test fail.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..');
const skipped = new Set(['node_modules', 'data', 'coverage', 'dist', '.git']);

interface SourceFile {
  /** Path from the repository root, with forward slashes. */
  path: string;
  imports: string[];
}

function listSources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    if (skipped.has(name) || name.startsWith('.')) continue;
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...listSources(full));
    else if (/\.(ts|mts|cts|mjs|js)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

function importsOf(source: string): string[] {
  return ts.preProcessFile(source, true, true).importedFiles.map((f) => f.fileName);
}

function readSources(): SourceFile[] {
  return listSources(root).map((full) => ({
    path: relative(root, full).split(sep).join('/'),
    imports: importsOf(readFileSync(full, 'utf8')),
  }));
}

/** The top-level folder a relative import lands in (core, rest, ...), or null for a package. */
function targetFolder(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  const target = relative(root, resolve(root, dirname(file), specifier))
    .split(sep)
    .join('/');
  return target.split('/')[0] ?? null;
}

const frameworkPackages = [/^koa$/, /^koa\//, /^@koa\//, /^koa-body$/, /^@modelcontextprotocol\//];

interface Rule {
  from: string;
  forbidden: (specifier: string, folder: string | null, file: string) => boolean;
  why: string;
}

/** The packages docs/architecture.md names for core, and for db; Node's built-ins are open to both. */
const corePackages = [
  'valibot',
  '@valibot/to-json-schema',
  'kysely',
  'jose',
  'luxon',
  'uuid',
  'ipaddr.js',
  'ics',
  'pdfkit',
  'stripe',
];
const dbPackages = ['kysely', 'better-sqlite3', 'pg', 'uuid'];
const outside = (specifier: string, allowed: string[]) =>
  !specifier.startsWith('.') && !specifier.startsWith('node:') && !allowed.includes(specifier);

const rules: Rule[] = [
  {
    from: 'core',
    forbidden: (s) => frameworkPackages.some((p) => p.test(s)),
    why: 'core never imports Koa or the MCP SDK',
  },
  {
    from: 'core',
    forbidden: (s) => outside(s, corePackages),
    why: `core imports only ${corePackages.join(', ')} and Node's built-ins`,
  },
  {
    from: 'db',
    forbidden: (s) => outside(s, dbPackages),
    why: `db imports only ${dbPackages.join(', ')} and Node's built-ins`,
  },
  {
    from: 'core',
    forbidden: (s, _folder, file) => s === 'stripe' && file !== 'core/payments/stripe-sdk.ts',
    why: "Stripe's SDK is imported by core/payments/stripe-sdk.ts alone (on first use)",
  },
  {
    from: 'core',
    forbidden: (_s, folder) => folder === 'rest' || folder === 'mcp' || folder === 'src',
    why: 'core never imports rest, mcp or src',
  },
  {
    from: 'db',
    forbidden: (s, folder) =>
      folder === 'core' ||
      folder === 'rest' ||
      folder === 'mcp' ||
      folder === 'src' ||
      frameworkPackages.some((p) => p.test(s)),
    why: 'db is below core: it imports no use case, adapter or framework',
  },
  { from: 'rest', forbidden: (_s, folder) => folder === 'mcp', why: 'rest never imports mcp' },
  { from: 'mcp', forbidden: (_s, folder) => folder === 'rest', why: 'mcp never imports rest' },
  {
    from: '*',
    forbidden: (_s, folder, file) => {
      const own = file.split('/')[0];
      return folder === 'src' && own !== 'src' && own !== 'bin' && own !== 'test' && own !== 'bench';
    },
    why: 'nothing imports src except src, bin, test and bench',
  },
];

function violations(files: SourceFile[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const own = file.path.split('/')[0];
    for (const specifier of file.imports) {
      const folder = targetFolder(file.path, specifier);
      for (const rule of rules) {
        if (rule.from !== '*' && rule.from !== own) continue;
        if (rule.forbidden(specifier, folder, file.path))
          found.push(`${file.path} imports ${specifier}: ${rule.why}`);
      }
    }
  }
  return found;
}

describe('dependency direction', () => {
  const sources = readSources();

  it('finds the source files and their imports', () => {
    const folders = new Set(sources.map((f) => f.path.split('/')[0]));
    for (const folder of ['core', 'rest', 'mcp', 'src', 'db', 'test']) expect(folders).toContain(folder);
    const groups = sources.find((f) => f.path === 'rest/route-groups.ts');
    expect(groups?.imports).toContain('@koa/router');
    const router = sources.find((f) => f.path === 'rest/router.ts');
    expect(router?.imports.some((s) => s.startsWith('../core/'))).toBe(true);
  });

  it('keeps core and db to their packages, core free of rest, mcp and src; rest and mcp apart; src imported by no one', () => {
    expect(violations(sources)).toEqual([]);
  });

  it('would notice each kind of crossing import', () => {
    const crossing: [string, string][] = [
      ['core/events/x.ts', "import Koa from 'koa';"],
      ['core/events/x.ts', "import type { Context } from 'koa';"],
      ['core/events/x.ts', "import { Router } from '@koa/router';"],
      ['core/events/x.ts', "import { koaBody } from 'koa-body';"],
      ['core/platform/x.ts', "import { Server } from '@modelcontextprotocol/sdk/server/index.js';"],
      ['core/events/x.ts', "import { routes } from '../../rest/routes';"],
      ['core/events/x.ts', "export { tools } from '../../mcp/tools';"],
      ['core/events/x.ts', "const s = await import('../../src/settings');"],
      ['rest/x.ts', "import { tools } from '../mcp/tools';"],
      ['mcp/x.ts', "import type { Route } from '../rest/route-table';"],
      ['rest/x.ts', "import { settingsFrom } from '../src/settings';"],
      ['core/x.ts', "import '../src/server';"],
      ['db/sample/x.ts', "import { createEvent } from '../../core/events';"],
      ['core/events/x.ts', "import pino from 'pino';"],
      ['core/events/x.ts', "import { DateTime } from 'luxon/src/datetime';"],
      ['db/x.ts', "import * as v from 'valibot';"],
    ];
    for (const [path, source] of crossing) {
      expect(violations([{ path, imports: importsOf(source) }]), `${path}: ${source}`).not.toEqual([]);
    }
  });

  it('allows what the direction allows', () => {
    const allowed: [string, string][] = [
      ['core/events/x.ts', "import * as v from 'valibot'; import { sql } from 'kysely';"],
      ['core/webhooks/x.ts', "import ipaddr from 'ipaddr.js'; import { request } from 'node:https';"],
      ['db/x.ts', "import Database from 'better-sqlite3'; import pg from 'pg';"],
      [
        'core/events/x.ts',
        "import type { Db } from '../../db/connect'; import { problem } from '../platform/problems';",
      ],
      [
        'rest/x.ts',
        "import { invoke } from '../core/platform/pipeline/invoke'; import { Router } from '@koa/router';",
      ],
      ['mcp/x.ts', "import { invoke } from '../core/platform/pipeline/invoke';"],
      ['src/x.ts', "import { tools } from '../mcp/tools'; import { routes } from '../rest/routes';"],
      ['test/x.ts', "import { startServer } from '../src/server';"],
      ['bin/x.mjs', "await import('../src/cli.ts');"],
    ];
    for (const [path, source] of allowed) {
      expect(violations([{ path, imports: importsOf(source) }]), `${path}: ${source}`).toEqual([]);
    }
  });
});

describe("Stripe's SDK", () => {
  it('is loaded on first use only: its one importer names it as a type and imports it dynamically, so a start loads none of it', () => {
    const source = readFileSync(join(root, 'core/payments/stripe-sdk.ts'), 'utf8');
    const statements = source.split('\n').filter((line) => /from 'stripe'|import\('stripe'\)/.test(line));
    expect(statements.filter((line) => /^import /.test(line))).toEqual(["import type Stripe from 'stripe';"]);
    expect(statements.some((line) => line.includes("import('stripe')"))).toBe(true);
  });
});
