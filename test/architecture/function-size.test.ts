// No function of the service's code (core, rest, mcp, src, db) is longer than 80 lines: a longer one
// does several jobs, and is split into functions named after them. Reads every function, method,
// accessor, constructor and arrow with the TypeScript compiler's parser, so a function that grows
// past the limit makes this test fail, naming it.
//
// A template is exempt: a function whose lines are mostly the text of template literals (an HTML page
// or an e-mail's text, say, `html\`…\`` or a plain `\`…\``): at least two thirds of its lines lie
// inside template literals. Splitting a page's markup across functions would only scatter it.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const folders = ['core', 'rest', 'mcp', 'src', 'db'];
const maxLines = 80;
/** The share of a function's lines inside template literals that makes it a template. */
const templateShare = 2 / 3;

/**
 * Functions allowed past the limit, as `path:name`, each with why: released migrations only. A new
 * entry needs a reason that is not "it grew".
 */
const migration = 'a released migration is the record of a schema change: it is never edited';
const exempt = new Map<string, string>([
  ['db/migrations/0001-foundation.ts:up', migration],
  ['db/migrations/0002-sales.ts:up', migration],
  ['db/migrations/0003-doors-programme-passes.ts:up', migration],
  ['db/migrations/0006-webhooks.ts:up', migration],
  ['db/migrations/0008-sponsors.ts:up', migration],
  ['db/migrations/0011-finance.ts:up', migration],
  ['db/migrations/0012-cfp-sharekit.ts:up', migration],
  ['db/migrations/0013-import-sources.ts:up', migration],
]);

interface LongFunction {
  /** path:name, the name as exempt lists it. */
  id: string;
  /** path:line, to find it. */
  at: string;
  lines: number;
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) out.push(...sources(full));
    else if (/\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The name a function goes by: its own, else what it is assigned to or the property it is, else the call it is passed to. */
function nameOf(node: ts.FunctionLikeDeclaration, file: ts.SourceFile): string {
  if (node.name) return node.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(file).replace(/\s+/g, '');
    const first = parent.arguments[0];
    const label = first && ts.isStringLiteralLike(first) ? `(${first.text})` : '';
    return `${callee}${label}=>`;
  }
  return '(anonymous)';
}

const lineOf = (file: ts.SourceFile, pos: number) => file.getLineAndCharacterOfPosition(pos).line;

/** The lines of `node` that lie inside a template literal (each counted once). */
function templateLines(node: ts.Node, file: ts.SourceFile): Set<number> {
  const lines = new Set<number>();
  const visit = (n: ts.Node) => {
    if (ts.isTemplateExpression(n) || ts.isNoSubstitutionTemplateLiteral(n)) {
      for (let line = lineOf(file, n.getStart(file)); line <= lineOf(file, n.getEnd()); line += 1)
        lines.add(line);
    }
    ts.forEachChild(n, visit);
  };
  visit(node);
  return lines;
}

/** Every function of the folders longer than the limit that is not a template. */
function longFunctions(limit = maxLines): LongFunction[] {
  const found: LongFunction[] = [];
  for (const folder of folders)
    for (const full of sources(join(root, folder))) {
      const path = relative(root, full).split(sep).join('/');
      const file = ts.createSourceFile(path, readFileSync(full, 'utf8'), ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node) => {
        if (ts.isFunctionLike(node) && 'body' in node && node.body) {
          const fn = node as ts.FunctionLikeDeclaration;
          const first = lineOf(file, fn.getStart(file));
          const lines = lineOf(file, fn.getEnd()) - first + 1;
          if (lines > limit && templateLines(fn, file).size < lines * templateShare)
            found.push({ id: `${path}:${nameOf(fn, file)}`, at: `${path}:${first + 1}`, lines });
        }
        ts.forEachChild(node, visit);
      };
      visit(file);
    }
  return found;
}

describe('the size of functions', () => {
  it(`finds no function longer than ${maxLines} lines in ${folders.join(', ')} but templates`, () => {
    const over = longFunctions()
      .filter((f) => !exempt.has(f.id))
      .map((f) => `${f.at} ${f.id} (${f.lines} lines)`);
    expect(over).toEqual([]);
  });

  it('lists as exempt only functions still over the limit', () => {
    const still = new Set(longFunctions().map((f) => f.id));
    expect([...exempt.keys()].filter((id) => !still.has(id))).toEqual([]);
  });

  it('finds functions at all: a limit of one line finds many', () => {
    // The rule itself, on code written here: guards against a walk that finds nothing.
    expect(longFunctions(1).length).toBeGreaterThan(100);
  });
});
