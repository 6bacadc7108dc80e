// Operator commands on workspaces (the CLI's), outside any API key. Making one is an operation run
// by invoke as the operator of the workspace it makes (tessera workspace create).

import * as v from 'valibot';
import type { Db } from '../../db/connect';
import { fillSampleData } from '../../db/sample';
import { isSampleWorkspace } from '../mail';
import type { Clock } from '../platform/clock';
import { nameNotBlank } from '../platform/field-errors';
import { newId } from '../platform/ids';
import { defineOperation } from '../platform/pipeline/operation';
import { oneLine, uuid } from '../platform/schemas';
import { addSampleWebhooks } from '../webhooks';

/** What `workspace create --sample` says where it is made: a sample never sends e-mail. */
export const sampleSendsNoEmail =
  'A sample workspace sends no e-mail (its addresses are made up): people registered there never hear from it. For real events, make a workspace without --sample.';

export const createWorkspaceOperation = defineOperation({
  name: 'createWorkspace',
  title: 'Create a workspace',
  description:
    'Makes a writable workspace (tessera workspace create), empty for real events or, with sample, filled with the same kind of data as the demonstration workspace, which sends no e-mail. Answers its id and name, and whether its events send e-mail.',
  operator: true,
  scope: 'any',
  effect: 'write',
  activity: {
    resourceType: 'workspace',
    resourceId: (_input, output) => output.workspaceId,
    summary: (input) => (input.sample ? 'with sample data' : 'empty'),
  },
  problems: ['invalidRequest'],
  input: v.object({
    name: v.pipe(
      v.string(),
      oneLine,
      v.minLength(1),
      v.maxLength(200),
      v.description('Name of the workspace.'),
    ),
    sample: v.optional(
      v.pipe(
        v.boolean(),
        v.description('Fill it with sample data (made-up people: it sends no e-mail). Default false.'),
      ),
    ),
  }),
  rules: nameNotBlank,
  output: v.object({
    workspaceId: uuid('The new workspace.'),
    name: v.string(),
    sample: v.pipe(v.boolean(), v.description('Filled with sample data.')),
    sendsEmail: v.pipe(
      v.boolean(),
      v.description(
        "Whether its events send e-mail to attendees (with the service's e-mail on); a sample workspace never does.",
      ),
    ),
  }),
  async handler(ctx, input) {
    // The operator context names the workspace to make (operator.ts, newWorkspaceOperator).
    const made = await insertWorkspace(ctx.db, ctx.clock.now(), {
      workspaceId: ctx.actor.workspaceId,
      name: input.name.trim(),
      sample: input.sample === true,
      secretKey: ctx.services.secrets.webhookSecretKey,
    });
    return { ...made, sendsEmail: !made.sample };
  },
});

/** The workspace's row and, for a sample, its data, in the caller's transaction. */
async function insertWorkspace(
  db: Db,
  now: Date,
  input: { workspaceId: string; name: string; sample: boolean; secretKey: Buffer | null },
) {
  const { workspaceId, name, sample } = input;
  await db
    .insertInto('workspaces')
    .values({ id: workspaceId, name, demonstration: 0, created_utc: now.toISOString() })
    .execute();
  if (sample) {
    await fillSampleData(db, { workspaceId, now });
    await addSampleWebhooks(db, { workspaceId, now, secretKey: input.secretKey, keyId: null });
  }
  return { workspaceId, name, sample };
}

/**
 * A workspace made directly, for the test suite and the benchmark's seed (the operator's command
 * runs createWorkspaceOperation); `secretKey` encrypts the sample endpoints' signing secrets.
 */
export async function createWorkspace(
  db: Db,
  clock: Clock,
  input: { name: string; sample?: boolean },
  secretKey: Buffer | null = null,
) {
  const workspaceId = newId();
  const made = await db
    .transaction()
    .execute((trx) =>
      insertWorkspace(trx, clock.now(), { workspaceId, name: input.name, sample: !!input.sample, secretKey }),
    );
  return { workspaceId: made.workspaceId, name: made.name };
}

export async function findWorkspace(db: Db, workspaceId: string) {
  return db.selectFrom('workspaces').selectAll().where('id', '=', workspaceId).executeTakeFirst();
}

/** Every workspace of the data folder, the demonstration first, with counts of events and keys and whether it sends e-mail. */
export async function listWorkspaces(db: Db) {
  const rows = await db
    .selectFrom('workspaces')
    .select((eb) => [
      'workspaces.id',
      'workspaces.name',
      'workspaces.demonstration',
      'workspaces.created_utc',
      eb
        .selectFrom('events')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('events.workspace_id', '=', 'workspaces.id')
        .as('events'),
      eb
        .selectFrom('api_keys')
        .select(eb.fn.countAll<number>().as('n'))
        .whereRef('api_keys.workspace_id', '=', 'workspaces.id')
        .where('api_keys.revoked_utc', 'is', null)
        .as('keys'),
    ])
    .orderBy('workspaces.demonstration', 'desc')
    .orderBy('workspaces.created_utc')
    .orderBy('workspaces.id')
    .execute();
  const samples = await Promise.all(rows.map((w) => w.demonstration !== 1 && isSampleWorkspace(db, w.id)));
  return rows.map((w, at) => ({
    workspaceId: w.id,
    name: w.name,
    demonstration: w.demonstration === 1,
    sample: samples[at]!,
    // The demonstration and a sample workspace hold made-up people: neither ever sends e-mail.
    sendsEmail: w.demonstration !== 1 && !samples[at],
    events: Number(w.events ?? 0),
    keys: Number(w.keys ?? 0),
    createdUtc: w.created_utc,
  }));
}
