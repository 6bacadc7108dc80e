// A freed place goes to the waiting list before the public can take it only if every path that
// gives places back goes through core/waiting-list's releasePlacesOf. core/sales' givePlacesBack
// moves only the counts: this holds its callers to core/sales and core/waiting-list, so a new path
// (a checkout's hold run out, an order declined) cannot skip the list.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return sources(full);
    return name.endsWith('.ts') ? [full] : [];
  });
}

describe('places given back', () => {
  it('are given back through the waiting list everywhere: givePlacesBack is called only by core/sales and core/waiting-list', () => {
    const callers = ['core', 'rest', 'mcp', 'src', 'db']
      .flatMap((dir) => sources(join(root, dir)))
      .filter((file) => /\bgivePlacesBack\s*\(/.test(readFileSync(file, 'utf8')))
      .map((file) => relative(root, file).split(sep).join('/'));
    expect(
      callers.filter((f) => !f.startsWith('core/sales/') && !f.startsWith('core/waiting-list/')),
    ).toEqual([]);
    expect(callers).toContain('core/waiting-list/release-places.ts');
  });
});
