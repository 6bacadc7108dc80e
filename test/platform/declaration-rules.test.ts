// Issue 51, item 2: the start-up check of declarations also refuses a PATCH without ifMatch, an
// operator operation out of its scope rule, a key's write open to every key, an operation of an
// area an organiser switches off without that area's module; and the command line runs the check
// before any command, as the server does before it listens.
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { listDoors } from '../../core/checkin';
import { listBudgetLines } from '../../core/finance';
import { moduleAreas } from '../../core/platform/pipeline/declaration-check';
import { type AnyOperation, defineOperation } from '../../core/platform/pipeline/operation';
import { eventModules } from '../../db/values';
import { tools } from '../../mcp/tools';
import type { Route } from '../../rest/route-table';
import { routes } from '../../rest/routes';
import { buildApp } from '../../src/app';
import { program } from '../../src/cli-program';
import { checkOperations, commandOperations } from '../../src/declarations';

/** A write sound in every other respect. */
function probe(name: string, extra: Partial<AnyOperation> = {}): AnyOperation {
  return defineOperation({
    name,
    title: 'Probe',
    description: 'A write that is sound but for what a test changes.',
    scope: 'events:write',
    effect: 'write',
    problems: [],
    activity: { none: 'A probe.' },
    input: v.object({ eventId: v.string(), note: v.optional(v.string()) }),
    output: v.object({}),
    async handler() {
      return {};
    },
    ...extra,
  } as AnyOperation);
}

/** What building the app says with one more route. */
function buildingWith(route: Route): () => unknown {
  return () => {
    routes.push(route);
    try {
      // The check comes first: nothing of the services is touched when it refuses.
      return buildApp({} as never, {} as never, {} as never);
    } finally {
      routes.pop();
    }
  };
}

const hold = async () => undefined;
const current = async () => ({});

describe('a PATCH', () => {
  it('refuses to start with a PATCH route whose operation declares no ifMatch', () => {
    const unconditional = probe('unconditionalPatchProbe', { etag: true });
    expect(
      buildingWith({ method: 'PATCH', tag: 'Probe', path: '/probe/:id', operation: unconditional }),
    ).toThrow(/unconditionalPatchProbe is a PATCH without ifMatch/);
  });

  it('takes the same operation with ifMatch, and a POST without it', () => {
    const conditional = probe('conditionalPatchProbe', { etag: true, ifMatch: { hold, current } });
    expect(() =>
      checkOperations([conditional], { byKeys: [conditional], patched: [conditional] }),
    ).not.toThrow();
    const posted = probe('postProbe');
    expect(() => checkOperations([posted], { byKeys: [posted] })).not.toThrow();
  });

  it('holds every PATCH of the route table to it', () => {
    const patched = routes.filter((r) => r.method === 'PATCH');
    expect(patched.length).toBeGreaterThan(20);
    for (const r of patched) expect(r.operation.ifMatch, `${r.method} ${r.path}`).toBeDefined();
  });
});

describe("the operator's operations and scope 'any'", () => {
  const operator = (extra: Partial<AnyOperation>) =>
    probe('operatorProbe', { operator: true, scope: 'any', ...extra });

  it('refuses an operator operation that needs a scope or declares olderKeys', () => {
    expect(() => checkOperations([operator({ scope: 'events:write' })])).toThrow(
      /operatorProbe is the operator's, yet needs the scope events:write: its flag is its permission/,
    );
    expect(() =>
      checkOperations([operator({ olderKeys: { madeBefore: '2026-01-01', scope: 'events:read' } })]),
    ).toThrow(/operatorProbe is the operator's, yet declares olderKeys/);
    expect(() => checkOperations([operator({})])).not.toThrow();
  });

  it('refuses to start with an operator operation a route runs', () => {
    expect(buildingWith({ method: 'POST', tag: 'Probe', path: '/probe', operation: operator({}) })).toThrow(
      /operatorProbe is the operator's, yet a route or a tool runs it for keys/,
    );
  });

  it('refuses to start with a write any key may call (scope any, no operator flag)', () => {
    const open = probe('openWriteProbe', { scope: 'any' });
    expect(buildingWith({ method: 'POST', tag: 'Probe', path: '/probe', operation: open })).toThrow(
      /openWriteProbe is open to every key \(scope any\) yet writes/,
    );
    const read = probe('openReadProbe', { scope: 'any', effect: 'read', activity: undefined });
    expect(() => checkOperations([read], { byKeys: [read] })).not.toThrow();
  });
});

describe('the module of an area an organiser switches off', () => {
  /** Runs `test` with the operation's module changed, putting it back afterwards. */
  function withModule(operation: AnyOperation, module: AnyOperation['module'], test: () => void) {
    const declared = operation.module;
    const changed = operation as { module?: AnyOperation['module'] };
    changed.module = module;
    try {
      test();
    } finally {
      changed.module = declared;
    }
  }

  it('refuses a check-in operation on an event that declares no module', () => {
    withModule(listDoors, undefined, () =>
      expect(() => checkOperations([listDoors])).toThrow(
        /listDoors is in an area switched off by the checkin module, yet declares no module/,
      ),
    );
  });

  it("refuses a finance operation declaring another area's module", () => {
    withModule(listBudgetLines, 'crew', () =>
      expect(() => checkOperations([listBudgetLines])).toThrow(
        /listBudgetLines declares the crew module, not its area's \(budget or payments\)/,
      ),
    );
  });

  it('takes them as declared, and every operation the server and the command line run', () => {
    expect(listDoors.module).toBe('checkin');
    const byKeys = [...routes.map((r) => r.operation), ...tools.map((t) => t.operation)];
    expect(() =>
      checkOperations([...byKeys, ...commandOperations], {
        byKeys,
        patched: routes.filter((r) => r.method === 'PATCH').map((r) => r.operation),
      }),
    ).not.toThrow();
  });

  it('names an area for every module', () => {
    expect(new Set(Object.values(moduleAreas).flat())).toEqual(new Set(eventModules));
  });
});

describe('the command line', () => {
  it('runs the check before any command, refusing to run with an operation it cannot honour', async () => {
    commandOperations.push(probe('badCommandProbe', { operator: true, scope: 'people:write' }));
    try {
      await expect(program.parseAsync(['node', 'tessera', 'demo', 'key'])).rejects.toThrow(
        /badCommandProbe is the operator's, yet needs the scope people:write/,
      );
    } finally {
      commandOperations.pop();
    }
  });
});
