// The operator's commands are operations run through invoke, as a key's calls are: the same input
// validation and its problem, the write queue, the activity entry under the operator's name. No
// REST route or MCP tool reaches them, and invoke refuses them to any caller but the operator.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { markOrderPaid, markOrderPaidOperation } from '../../core/admin/mark-order-paid';
import { operatorContext, operatorName } from '../../core/admin/operator';
import { invoke } from '../../core/platform/pipeline/invoke';
import { tools } from '../../mcp/tools';
import { routes } from '../../rest/routes';
import { operatorOperations } from '../../src/operator-operations';
import { sampleIds } from '../support/sales';
import { startTestServer, type TestServer } from '../support/server';
import { runTessera } from '../support/spawned';

let t: TestServer;
let workspaceId: string;
let key: string;

beforeAll(async () => {
  t = await startTestServer();
  ({ workspaceId } = await t.workspace('Operator operations', true));
  ({ key } = await t.key({ workspaceId, preset: 'everything' }));
});
afterAll(async () => t.close());

/** `tessera person erase` of an email address in the test's workspace. */
const eraseByEmail = (email: string) =>
  runTessera(['person', 'erase', '--workspace', workspaceId, '--email', email, '--data', t.dataDir]);

describe('operator operations', () => {
  it('are declared for the operator and reached by no REST route and no MCP tool', () => {
    for (const operation of operatorOperations) expect(operation.operator, operation.name).toBe(true);
    const routed = new Set<unknown>([
      ...routes.map((r) => r.operation),
      ...tools.map((tool) => tool.operation),
    ]);
    for (const operation of operatorOperations) expect(routed.has(operation), operation.name).toBe(false);
  });

  it('are refused by invoke to a caller that is not the operator', async () => {
    const operator = await operatorContext(t.server.services, workspaceId);
    const keyCaller = { ...operator, actor: { ...operator.actor, operator: false } };
    await expect(
      invoke(markOrderPaidOperation, keyCaller, { orderId: '00000000-0000-4000-8000-000000000001' }),
    ).rejects.toThrow(/operator at the command line only/);
  });

  it('mark an order paid in the write queue, with the activity entry named after the operation and the operator', async () => {
    const summit = sampleIds(workspaceId).event('summit');
    const pending = (await t.api(`/events/${summit}/orders?sort=-created&status=pending&limit=1`, { key }))
      .body.data[0];
    const queued = vi.spyOn(t.server.services.writes, 'run');
    try {
      await markOrderPaid(await operatorContext(t.server.services, workspaceId), pending.orderId, 'bank');
      // At least once: the server's own jobs (deliveries, e-mail) may queue writes meanwhile.
      expect(queued).toHaveBeenCalled();
    } finally {
      queued.mockRestore();
    }
    const entry = await t.server.services.db
      .selectFrom('workspace_activity')
      .selectAll()
      .where('resource_id', '=', pending.orderId)
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      action: markOrderPaidOperation.name,
      actor_name: operatorName,
      api_key_id: null,
      summary: 'bank',
    });
  });

  it('answer a bad input to `tessera person erase` with invoke’s validation problem, exit status 2', async () => {
    const run = await eraseByEmail('not-an-address');
    expect(run.code).toBe(2);
    expect(run.stdout).toBe('');
    expect(JSON.parse(run.stderr)).toEqual({
      error: 'invalidRequest',
      detail: 'A field or parameter is missing or wrong. email: Not an email address.',
    });
  });

  it('make a workspace through invoke: a blank or too long name is the pipeline’s invalidRequest naming the field, exit status 2, nothing made', async () => {
    const before = await t.server.services.db.selectFrom('workspaces').select('id').execute();
    const blank = await runTessera(['workspace', 'create', '--name', '   ', '--data', t.dataDir]);
    expect(blank.code).toBe(2);
    expect(blank.stdout).toBe('');
    expect(JSON.parse(blank.stderr)).toEqual({
      error: 'invalidRequest',
      detail: 'A field or parameter is missing or wrong. name: The name cannot be blank.',
    });
    const long = await runTessera(['workspace', 'create', '--name', 'x'.repeat(201), '--data', t.dataDir]);
    expect(long.code).toBe(2);
    expect(JSON.parse(long.stderr)).toMatchObject({ error: 'invalidRequest' });
    expect(JSON.parse(long.stderr).detail).toMatch(/^A field or parameter is missing or wrong\. name: /);
    const after = await t.server.services.db.selectFrom('workspaces').select('id').execute();
    expect(after).toHaveLength(before.length);
  });

  it('make a workspace in the write queue, its activity log starting with the entry of its making under the operator’s name', async () => {
    const run = await runTessera(['workspace', 'create', '--name', '  Spring fair  ', '--data', t.dataDir]);
    expect(run.code, run.stderr).toBe(0);
    const made = JSON.parse(run.stdout);
    expect(made).toMatchObject({ name: 'Spring fair', sample: false, sendsEmail: true });
    const entries = await t.server.services.db
      .selectFrom('workspace_activity')
      .selectAll()
      .where('workspace_id', '=', made.workspaceId)
      .execute();
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'createWorkspace',
        actor_name: operatorName,
        api_key_id: null,
        resource_type: 'workspace',
        resource_id: made.workspaceId,
        summary: 'empty',
      }),
    ]);
  });

  it('answer the erasure counts of every declared personal resource, in the order the command always printed', async () => {
    const run = await eraseByEmail('nobody-here@example.org');
    expect(run.code, run.stderr).toBe(0);
    expect(Object.entries(JSON.parse(run.stdout))).toEqual(
      [
        'attendees',
        'orders',
        'passHolders',
        'speakers',
        'communityMembers',
        'leads',
        'submissionSpeakers',
        'submissionReviews',
        'sharers',
        'crewMembers',
        'invoices',
        'stays',
        'travel',
        'expenseClaims',
        'certificates',
        'mailMessages',
        'waitingListEntries',
        'surveyResponses',
        'sessionRatings',
      ].map((name) => [name, 0]),
    );
  });
});
