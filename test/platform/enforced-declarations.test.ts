// invoke enforces what an operation declares, whatever its handler does: If-Match against the view
// `ifMatch.current` loads (412 preconditionFailed with the current tag), the activity entry under the
// operation's name (none for a refusal or a write that changed nothing), a unique-key collision as
// the declared problem; and the app refuses to be built with a declaration invoke cannot honour.
import * as v from 'valibot';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ctx } from '../../core/platform/context';
import { newId } from '../../core/platform/ids';
import { checkDeclarations, declarationFaults } from '../../core/platform/pipeline/declaration-check';
import { etagOf } from '../../core/platform/pipeline/etag';
import { invoke } from '../../core/platform/pipeline/invoke';
import { loadEventForChange } from '../../core/platform/pipeline/load-event';
import {
  type AnyOperation,
  defineOperation,
  unchanged as unchangedAnswer,
} from '../../core/platform/pipeline/operation';
import { isProblem, problem } from '../../core/platform/problems';
import { tools } from '../../mcp/tools';
import { routes } from '../../rest/routes';
import { buildApp } from '../../src/app';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { onPostgres } from '../support/test-store';

let t: TestServer;
let workspaceId: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Enforced declarations', true));
});
afterAll(async () => t.close());

function context(ifMatch?: string): Ctx {
  const { services } = t.server;
  const actor = {
    workspaceId,
    workspaceName: 'Enforced declarations',
    demonstration: false,
    keyId: '',
    keyName: 'declaration probe',
    scopes: [],
  } as never;
  return { db: services.db, clock: services.clock, actor, services, request: { origin: '', ifMatch } };
}

/** The code of the problem it answered, or 'answered'. */
function outcome(operation: AnyOperation, ifMatch?: string, input: Record<string, unknown> = {}) {
  return invoke(operation, context(ifMatch), input).then(
    () => 'answered',
    (error: unknown) => (isProblem(error) ? error.code : String(error)),
  );
}

const activityOf = (action: string) =>
  t.server.services.db
    .selectFrom('workspace_activity')
    .select(['action', 'actor_name', 'api_key_id', 'resource_type', 'resource_id', 'summary'])
    .where('workspace_id', '=', workspaceId)
    .where('action', '=', action)
    .execute();

/** A write whose handler does nothing itself: whatever happens around it is invoke's doing. */
function probe(name: string, extra: Partial<AnyOperation>): AnyOperation {
  return defineOperation({
    name,
    title: 'Probe',
    description: 'A write that leaves every rule to its declaration.',
    scope: 'any',
    effect: 'write',
    problems: [],
    activity: { none: 'A probe.' },
    input: v.object({ note: v.optional(v.string()) }),
    output: v.object({}),
    async handler() {
      return {};
    },
    ...extra,
  } as AnyOperation);
}

describe('If-Match, declared with the loader of the current view', () => {
  const view = { name: 'current', version: 3 };
  // What invoke did, in order: the hold of what the tag names (PostgreSQL only) and the view's read.
  const steps: string[] = [];
  const conditional = probe('conditionalProbe', {
    ifMatch: {
      hold: async (_ctx, _input, lock) => steps.push(`hold ${lock}`),
      current: async () => {
        steps.push('current');
        return view;
      },
    },
  });

  it('refuses a stale tag with 412 preconditionFailed and the current tag, though the handler checks nothing', async () => {
    const refused = await invoke(conditional, context('"stale"'), {}).catch((error: unknown) => error);
    expect(isProblem(refused) && refused.code).toBe('preconditionFailed');
    expect(isProblem(refused) && refused.extras).toEqual({ etag: etagOf(view) });
  });

  it('runs the handler when the tag is current, is * or is not sent', async () => {
    expect(await outcome(conditional, etagOf(view))).toBe('answered');
    expect(await outcome(conditional, `"other", ${etagOf(view)}`)).toBe('answered');
    expect(await outcome(conditional, '*')).toBe('answered');
    expect(await outcome(conditional)).toBe('answered');
  });

  it('holds what the tag names on PostgreSQL before it reads the view, and without a tag too', async () => {
    steps.length = 0;
    await outcome(conditional, etagOf(view));
    await outcome(conditional);
    const removal = probe('conditionalRemovalProbe', { effect: 'destructive', ifMatch: conditional.ifMatch });
    await outcome(removal, etagOf(view));
    // Without a tag the hold keeps a change that writes its row back whole from losing another's.
    // SQLite writes one call at a time, its reads included: nothing to hold there.
    expect(steps).toEqual(
      onPostgres
        ? ['hold change', 'current', 'hold change', 'hold removal', 'current']
        : ['current', 'current'],
    );
  });
});

describe('the activity entry, declared', () => {
  it("is written by invoke under the operation's name, with the declared resource and summary", async () => {
    const logged = probe('loggedProbe', {
      activity: {
        resourceType: 'probe',
        resourceId: (input: { note?: string }) => `probe-${input.note}`,
        summary: () => 'a summary',
      },
    });
    expect(await outcome(logged, undefined, { note: 'one' })).toBe('answered');
    expect(await activityOf('loggedProbe')).toEqual([
      {
        action: 'loggedProbe',
        actor_name: 'declaration probe',
        api_key_id: null,
        resource_type: 'probe',
        resource_id: 'probe-one',
        summary: 'a summary',
      },
    ]);
  });

  it('is not written for a refused write, one that changed nothing, or one that declares none', async () => {
    const activity = { resourceType: 'probe', resourceId: () => 'probe' };
    const refused = probe('refusedProbe', {
      activity,
      problems: ['clash'],
      handler: async () => {
        throw problem('clash');
      },
    });
    const unchanged = probe('unchangedProbe', {
      activity,
      handler: async () => unchangedAnswer({}),
    });
    expect(await outcome(refused)).toBe('clash');
    expect(await outcome(unchanged)).toBe('answered');
    expect(await outcome(probe('silentProbe', {}))).toBe('answered');
    for (const action of ['refusedProbe', 'unchangedProbe', 'silentProbe'])
      expect(await activityOf(action), action).toEqual([]);
  });
});

describe('a unique-key collision, declared', () => {
  /** Writes an event of the workspace again under a new id: a collision on events.slug. */
  const again = async (ctx: Ctx) => {
    const row = await ctx.db
      .selectFrom('events')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow();
    await ctx.db
      .insertInto('events')
      .values({ ...row, id: newId() })
      .execute();
    return {};
  };

  it('answers the declared problem with its detail, and writes no entry', async () => {
    const colliding = probe('collidingProbe', {
      problems: ['clash'],
      activity: { resourceType: 'probe', resourceId: () => 'probe' },
      unique: {
        'events.slug': { code: 'clash', detail: (input: { note?: string }) => `Taken: ${input.note}.` },
      },
      handler: again,
    });
    const refused = await invoke(colliding, context(), { note: 'twice' }).catch((error: unknown) => error);
    expect(isProblem(refused) && [refused.code, refused.detail]).toEqual(['clash', 'Taken: twice.']);
    expect(await activityOf('collidingProbe')).toEqual([]);
  });

  it('keeps the first answer of an idempotent write that collided, as it keeps any refusal', async () => {
    const colliding = probe('idempotentCollidingProbe', {
      problems: ['clash'],
      idempotent: true,
      unique: { 'events.slug': 'clash' },
      handler: again,
    });
    const idempotency = { key: 'collision-1', method: 'POST', path: '/probe' } as never;
    const codes: string[] = [];
    for (let i = 0; i < 2; i++)
      codes.push(
        await invoke(colliding, context(), {}, { idempotency }).then(
          () => 'answered',
          (error: unknown) => (isProblem(error) ? error.code : String(error)),
        ),
      );
    expect(codes).toEqual(['clash', 'clash']);
  });

  it('is left as the fault it is when the operation maps no problem to it', async () => {
    const careless = probe('carelessCollidingProbe', { handler: again });
    expect(await outcome(careless)).toMatch(/UNIQUE|duplicate key/i);
  });
});

describe('a change of its event, declared (changesEvent)', () => {
  // Every other write holds its event from its first read (load-event.ts); held first, then locked
  // for a change, two such writes at once would each wait for the other's hold.
  const changing = (extra: Partial<AnyOperation>) =>
    probe('eventChangeProbe', {
      input: v.object({ eventId: v.string() }),
      async handler(ctx: Ctx, input: { eventId: string }) {
        await loadEventForChange(ctx, input.eventId);
        return {};
      },
      ...extra,
    });
  const eventId = () => sampleIds(workspaceId).event('summit');

  it('is a fault when the write changes its event without the declaration', async () => {
    expect(await outcome(changing({}), undefined, { eventId: eventId() })).toMatch(
      /must declare changesEvent/,
    );
  });

  it('lets a write that declares it change its event', async () => {
    expect(await outcome(changing({ changesEvent: true }), undefined, { eventId: eventId() })).toBe(
      'answered',
    );
  });
});

describe('the start-up check of declarations', () => {
  it('finds nothing wrong with any operation a route or a tool runs', () => {
    for (const operation of [...routes.map((r) => r.operation), ...tools.map((x) => x.operation)])
      expect(declarationFaults(operation), operation.name).toEqual([]);
  });

  it('names each declaration invoke cannot honour', () => {
    const faultsOf = (extra: Partial<AnyOperation>) => declarationFaults(probe('badProbe', extra));
    expect(faultsOf({ ifMatch: true as never })).toEqual([
      'declares ifMatch without current, the loader of the view its entity tag names',
      'declares ifMatch without hold, the lock of what its entity tag names (tagged-row.ts)',
    ]);
    const hold = async () => undefined;
    expect(faultsOf({ ifMatch: { current: async () => ({}) } as never })).toEqual([
      'declares ifMatch without hold, the lock of what its entity tag names (tagged-row.ts)',
      'declares ifMatch but no etag, so its answer gives no tag for the next If-Match',
    ]);
    expect(faultsOf({ ifMatch: { hold, current: async () => ({}) } })).toEqual([
      'declares ifMatch but no etag, so its answer gives no tag for the next If-Match',
    ]);
    // A removal has nothing left to tag: it checks the tag it is sent and answers none.
    expect(faultsOf({ effect: 'destructive', ifMatch: { hold, current: async () => ({}) } })).toEqual([]);
    expect(faultsOf({ activity: undefined })).toEqual([
      'writes without an activity declaration (or { none: why })',
    ]);
    expect(faultsOf({ activity: { none: '' } })).toEqual(['declares no activity without saying why']);
    expect(faultsOf({ unique: { 'events.slug': 'slugTaken' } })).toEqual([
      'maps a collision on events.slug to slugTaken, a problem it does not declare',
    ]);
    expect(faultsOf({ effect: 'read', activity: undefined, unique: {} })).toEqual([
      'reads, yet declares ifMatch, activity or unique, which only writes have',
    ]);
    expect(() => checkDeclarations([probe('badProbe', { activity: undefined })])).toThrow(
      /badProbe writes without an activity declaration/,
    );
  });

  it('refuses to build the app with such an operation in the route table', () => {
    const bad = probe('undeclaredActivityProbe', { activity: undefined });
    routes.push({ method: 'POST', tag: 'Probe', path: '/probe', operation: bad });
    try {
      expect(() => buildApp(t.server.services, {} as never, {} as never)).toThrow(
        /undeclaredActivityProbe writes without an activity declaration/,
      );
    } finally {
      routes.pop();
    }
  });
});
