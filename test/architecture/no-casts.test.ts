// The pipeline is typed end to end (core/platform/pipeline/invoke.ts, operation.ts): a cast to never
// silences every check of the value it is put on, so none is left in the code the service runs.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');
const folders = ['core', 'rest', 'mcp', 'src'];
const castToNever = /\bas\s+never\b/;

function sourceFiles(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|js|mjs)$/.test(file) && !file.includes('node_modules'))
    .map((file) => join(folder, file));
}

/** Lines of code (comments aside) casting a value to never, as file:line. */
function castsIn(files: string[]): string[] {
  const found: string[] = [];
  for (const file of files) {
    const lines = readFileSync(join(root, file), 'utf8').split('\n');
    lines.forEach((line, i) => {
      const code = line.replace(/\/\/.*$/, '').replace(/^\s*\*.*$/, '');
      if (castToNever.test(code)) found.push(`${file}:${i + 1}`);
    });
  }
  return found;
}

describe('casts', () => {
  it('no code in core, rest, mcp or src casts a value to never', () => {
    expect(castsIn(folders.flatMap(sourceFiles))).toEqual([]);
  });

  it('finds a cast to never where one is written', () => {
    expect(castToNever.test('invoke(createOrder as never, ctx, input)')).toBe(true);
    expect(castToNever.test('The ticket was never checked in')).toBe(false);
  });
});
