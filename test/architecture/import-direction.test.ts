// Issue 51, item 2: the direction of every import in core/, db/, rest/, mcp/ and src/, read from
// the sources (static, dynamic, type-only imports and re-exports):
// - between top-level folders, downwards only: src -> rest, mcp -> core -> db (a layer may use any
//   layer below it); rest and mcp never import each other; nothing of these imports test/, bench/,
//   scripts/ or bin/. rest's one import of db is the reader of packaged files (db/packaged-files.ts),
//   which the pages' files are declared with as the database driver's are; mcp imports nothing of db.
// - inside core: core/platform is below every area and imports none; an area reaches another only
//   through that area's index.ts (its only way in), and never its own index; rest, mcp and src reach
//   an area through its index too (core/platform's files they import freely); every area has an
//   index, and the areas' imports run one way (no circle).
// - only core's outbox writer (core/platform/storage/outbox.ts) writes the outbox.
// test/architecture.test.ts keeps the packages each layer may use.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '..', '..');
const layers = ['core', 'db', 'rest', 'mcp', 'src'] as const;
type Layer = (typeof layers)[number];
/** Higher imports lower; equal ranks (rest, mcp) never import each other. */
const rank: Record<Layer, number> = { db: 0, core: 1, rest: 2, mcp: 2, src: 3 };
/** The imports of db a layer above core may make, by the file imported. */
const dbForAdapters: Record<'rest' | 'mcp', string[]> = { rest: ['db/packaged-files'], mcp: [] };
const notProduct = ['test', 'bench', 'scripts', 'bin'];
/**
 * Files of an area that a browser bundle imports as they are: the scanner page's offline answers
 * take the door's own rules (plain JavaScript), where the area's index would pull the server in.
 */
const browserShared: Record<string, string> = {
  'core/checkin/door-rules': 'rest/pages/scan-app/offline-scan.js',
};

interface Source {
  /** From the repository root, forward slashes. */
  path: string;
  imports: string[];
}

function listSources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const full = join(dir, name);
    if (statSync(full).isDirectory()) return listSources(full);
    return /\.(ts|mts|js|mjs)$/.test(name) && !name.endsWith('.d.ts') ? [full] : [];
  });
}

const importsOf = (text: string) => ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
const posix = (path: string) => path.split(sep).join('/');

function readSources(): Source[] {
  return layers.flatMap((layer) =>
    listSources(join(root, layer)).map((full) => ({
      path: posix(relative(root, full)),
      imports: importsOf(readFileSync(full, 'utf8')),
    })),
  );
}

/** A relative import's target from the root, without its extension; null for a package. */
function targetOf(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return posix(relative(root, resolve(root, dirname(file), specifier))).replace(/\.(ts|mts|js|mjs)$/, '');
}

/** The area of core a path is in ('platform' included), or null outside core. */
function areaOf(path: string): string | null {
  const [top, area, ...rest] = path.split('/');
  return top === 'core' && area && rest.length > 0 ? area : null;
}

/** Whether the target is an area's index (core/<area> or core/<area>/index). */
function isIndex(target: string): boolean {
  const parts = target.split('/');
  return parts[0] === 'core' && (parts.length === 2 || (parts.length === 3 && parts[2] === 'index'));
}

const layerOf = (path: string) => path.split('/')[0] as string;

function violations(sources: Source[]): string[] {
  const found: string[] = [];
  for (const { path, imports } of sources) {
    const from = layerOf(path) as Layer;
    const fromArea = areaOf(path);
    for (const specifier of imports) {
      const target = targetOf(path, specifier);
      if (!target) continue;
      const to = layerOf(target);
      const say = (why: string) => found.push(`${path} imports ${specifier}: ${why}`);
      if (notProduct.includes(to)) say(`the product never imports ${to}/`);
      if (!(layers as readonly string[]).includes(to)) continue;
      const toLayer = to as Layer;
      if (toLayer !== from) {
        if (rank[toLayer] >= rank[from])
          say(`${from} is below ${toLayer} or beside it: src -> rest, mcp -> core -> db`);
        else if (
          toLayer === 'db' &&
          (from === 'rest' || from === 'mcp') &&
          !dbForAdapters[from].includes(target)
        )
          say(
            `${from} reaches db only through core (besides ${dbForAdapters[from].join(', ') || 'nothing'})`,
          );
      }
      if (toLayer !== 'core') continue;
      const toArea = isIndex(target) ? target.split('/')[1]! : areaOf(target);
      if (!toArea || toArea === 'platform') continue;
      if (fromArea === 'platform') say('core/platform is below every area and imports none');
      else if (fromArea === toArea) {
        if (isIndex(target)) say(`an area's own files never import its index (the way in for others)`);
      } else if (!isIndex(target) && browserShared[target.replace(/\.js$/, '')] !== path)
        say(`core/${toArea} is reached only through its index (core/${toArea}/index.ts)`);
    }
  }
  return found;
}

/** Every area's imports of other areas. */
function areaGraph(sources: Source[]): Map<string, Set<string>> {
  const graph = new Map<string, Set<string>>();
  for (const { path, imports } of sources) {
    const from = areaOf(path);
    if (!from || from === 'platform') continue;
    for (const specifier of imports) {
      const target = targetOf(path, specifier);
      const to = target && (isIndex(target) ? target.split('/')[1]! : areaOf(target));
      if (!to || to === from || to === 'platform') continue;
      if (!graph.has(from)) graph.set(from, new Set());
      graph.get(from)!.add(to);
    }
  }
  return graph;
}

/** One circle of the graph, as the areas in order, or null. */
function circleIn(graph: Map<string, Set<string>>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const trail: string[] = [];
  const visit = (area: string): string[] | null => {
    if (state.get(area) === 'done') return null;
    if (state.get(area) === 'open') return [...trail.slice(trail.indexOf(area)), area];
    state.set(area, 'open');
    trail.push(area);
    for (const next of graph.get(area) ?? []) {
      const circle = visit(next);
      if (circle) return circle;
    }
    trail.pop();
    state.set(area, 'done');
    return null;
  };
  for (const area of graph.keys()) {
    const circle = visit(area);
    if (circle) return circle;
  }
  return null;
}

describe('the direction of imports', () => {
  const sources = readSources();

  it('reads every source file of the five layers and its imports', () => {
    for (const layer of layers)
      expect(
        sources.some((s) => s.path.startsWith(`${layer}/`)),
        layer,
      ).toBe(true);
    const events = sources.find((s) => s.path === 'core/events/create-event.ts');
    expect(events?.imports.some((s) => s.startsWith('../platform/'))).toBe(true);
  });

  it('keeps every import downwards, and every area of core behind its index', () => {
    expect(violations(sources)).toEqual([]);
  });

  it('gives every area of core an index', () => {
    const areas = readdirSync(join(root, 'core')).filter(
      (name) => name !== 'platform' && statSync(join(root, 'core', name)).isDirectory(),
    );
    expect(areas.length).toBeGreaterThan(20);
    expect(areas.filter((area) => !existsSync(join(root, 'core', area, 'index.ts')))).toEqual([]);
  });

  it('has the areas import each other one way, with no circle', () => {
    expect(circleIn(areaGraph(sources))).toBeNull();
  });

  it("lets only core's outbox writer write the outbox", () => {
    const writers = layers
      .flatMap((layer) => listSources(join(root, layer)))
      .filter((full) => /insertInto\(\s*'outbox'|insertRows\([^)]*'outbox'/.test(readFileSync(full, 'utf8')))
      .map((full) => posix(relative(root, full)));
    expect(writers).toEqual(['core/platform/storage/outbox.ts']);
  });

  it('would notice each kind of crossing import', () => {
    const crossing: [string, string][] = [
      ['db/sample/x.ts', "import { createEvent } from '../../core/events';"],
      ['db/x.ts', "import type { Route } from '../rest/route-table';"],
      ['core/events/x.ts', "import { routes } from '../../rest/routes';"],
      ['core/events/x.ts', "const m = await import('../../mcp/tools');"],
      ['rest/x.ts', "import { tools } from '../mcp/tools';"],
      ['mcp/x.ts', "export { get } from '../rest/route-table';"],
      ['rest/x.ts', "import { startServer } from '../src/server';"],
      ['rest/x.ts', "import type { Db } from '../db/connect';"],
      ['mcp/x.ts', "import { packagedFiles } from '../db/packaged-files';"],
      ['core/x.ts', "import { startTestServer } from '../test/support/server';"],
      ['core/logistics/x.ts', "import { eventRef } from '../events/event-view';"],
      ['core/logistics/x.ts', "import type { EventRefSource } from '../events/event-view';"],
      ['core/import/sections/x.ts', "import { leadQuery } from '../../sponsors/lead-view';"],
      ['core/logistics/x.ts', "import { stayView } from '.';"],
      ['core/logistics/x.ts', "import { stayView } from './index';"],
      ['core/platform/x.ts', "import { eventRef } from '../events';"],
      ['core/platform/pipeline/x.ts', "import type { EventRefSource } from '../../events/event-view';"],
      ['rest/x.ts', "import { publicEvent } from '../core/events/public-event';"],
      ['src/x.ts', "const { x } = await import('../core/admin/operator');"],
      ['mcp/x.ts', "import { eventBriefing } from '../core/briefing/event-briefing';"],
    ];
    for (const [path, source] of crossing)
      expect(violations([{ path, imports: importsOf(source) }]), `${path}: ${source}`).not.toEqual([]);
  });

  it('allows what the direction allows', () => {
    const allowed: [string, string][] = [
      ['src/x.ts', "import { routes } from '../rest/routes'; import { tools } from '../mcp/tools';"],
      ['src/x.ts', "import { openServices } from '../db/connect'; import { x } from '../core/admin';"],
      ['rest/x.ts', "import { events } from '../core/events'; import { y } from '../core/platform/keys';"],
      ['rest/pages/x.ts', "import { packagedFiles } from '../../db/packaged-files';"],
      ['mcp/x.ts', "import { invoke } from '../core/platform/pipeline/invoke';"],
      ['core/logistics/x.ts', "import { eventRef } from '../events'; import { z } from '../events/index';"],
      [
        'core/logistics/x.ts',
        "import { stayView } from './stay-view'; import type { Db } from '../../db/connect';",
      ],
      [
        'core/webhooks/endpoints/x.ts',
        "import { a } from '../signing-secrets'; import { b } from '../../orders';",
      ],
      ['core/events/x.ts', "import { problem } from '../platform/problems';"],
      ['core/platform/x.ts', "import { c } from './pipeline/invoke'; import { d } from '../../db/values';"],
      ['core/platform/version.ts', "import pkg from '../../package.json';"],
    ];
    for (const [path, source] of allowed)
      expect(violations([{ path, imports: importsOf(source) }]), `${path}: ${source}`).toEqual([]);
  });

  it('would notice a circle of areas', () => {
    const circle = [
      { path: 'core/orders/x.ts', imports: ['../attendees'] },
      { path: 'core/attendees/x.ts', imports: ['../mail'] },
      { path: 'core/mail/x.ts', imports: ['../orders/index'] },
    ];
    expect(circleIn(areaGraph(circle))).toEqual(['orders', 'attendees', 'mail', 'orders']);
  });
});
