// The operator's key commands as operations (tessera key create / revoke): run through invoke with
// the operator context of the key's workspace, in the write queue. Neither writes the activity log,
// as before; a refused request is a KeyRequestError (the CLI's invalidArguments).
import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { oneLine, uuid } from '../platform/schemas';
import { scopes } from '../platform/scopes';
import { insertKey, revokeKeyIn } from './api-keys';

const names = (description: string) =>
  v.optional(v.pipe(v.array(v.pipe(v.string(), oneLine)), v.description(description)));

export const createKeyOperation = defineOperation({
  name: 'createKey',
  title: 'Create an API key',
  description:
    'Makes an API key in the workspace (tessera key create) from exactly one of a preset, a list of scopes or legacy scopes (read, write), with an expiry and an optional call rate. Answers the key, shown this once.',
  operator: true,
  scope: 'any',
  effect: 'write',
  activity: {
    none: 'The key records when it was made; key commands have never been in the activity log.',
  },
  problems: [],
  input: v.object({
    name: v.pipe(v.string(), oneLine, v.description('The name of the key, shown in the activity log.')),
    preset: v.optional(v.pipe(v.string(), oneLine, v.description('A starting set of scopes.'))),
    scopes: names('Scopes, e.g. events:read.'),
    legacy: names('Scopes of a key as before per-area scopes: read, write.'),
    expires: v.optional(v.pipe(v.string(), oneLine, v.description('Days (30, 90, 180, 365) or never.'))),
    // Any number, NaN too: insertKey answers a rate that is not a whole number as before.
    ratePerMinute: v.optional(
      v.pipe(
        v.custom<number>((x) => typeof x === 'number'),
        v.description('Calls a minute for this key.'),
      ),
    ),
  }),
  output: v.object({
    apiKeyId: v.string(),
    name: v.string(),
    key: v.string(),
    prefix: v.string(),
    scopes: v.array(v.picklist(scopes)),
    expiresUtc: v.nullable(v.string()),
  }),
  handler: (ctx, request) => insertKey(ctx.db, ctx.clock, { ...request, workspaceId: ctx.actor.workspaceId }),
});

export const revokeKeyOperation = defineOperation({
  name: 'revokeKey',
  title: 'Revoke an API key',
  description:
    'Revokes a key of the workspace (tessera key revoke): refused (401 keyRevoked) from its very next call; the automation subscriptions it made are removed and the endpoints it made switched off. Revoking it again changes nothing.',
  operator: true,
  scope: 'any',
  effect: 'destructive',
  activity: {
    none: 'The key records when it was revoked; key commands have never been in the activity log.',
  },
  repeatable: true,
  problems: ['notFound'],
  input: v.object({ apiKeyId: uuid('The key to revoke.') }),
  output: v.object({
    apiKeyId: v.string(),
    revokedUtc: v.string(),
    alreadyRevoked: v.boolean(),
    subscriptionsRemoved: v.number(),
    endpointsSwitchedOff: v.number(),
  }),
  handler: (ctx, { apiKeyId }) => revokeKeyIn(ctx.db, ctx.clock, apiKeyId, ctx.actor.workspaceId),
});
