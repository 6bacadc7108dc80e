import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, noInput, rateLimitSchema, text, uuid } from '../platform/schemas';
import { scopes } from '../platform/scopes';
import { rateLimitOf } from './rate-limit';

export const meSchema = v.object({
  workspaceId: uuid('The workspace the key reaches.'),
  workspaceName: text('Name of the workspace.'),
  keyName: text('Name given to the key.'),
  scopes: v.array(v.picklist(scopes)),
  keyPrefix: text('The marker plus twelve characters, as lists show it.'),
  expiresUtc: v.nullable(dateTime('When the key expires; null when it does not.')),
  rateLimit: rateLimitSchema,
});

export const getMe = defineOperation({
  name: 'getMe',
  title: 'Who am I',
  description:
    "Which workspace this key reaches, and the key's name, scopes, expiry and call limit. Any working key may call it.",
  scope: 'any',
  effect: 'read',
  problems: [],
  input: noInput,
  output: meSchema,
  async handler(ctx) {
    const { actor } = ctx;
    return {
      workspaceId: actor.workspaceId,
      workspaceName: actor.workspaceName,
      keyName: actor.keyName,
      scopes: actor.scopes,
      keyPrefix: actor.keyPrefix,
      expiresUtc: actor.expiresUtc,
      rateLimit: rateLimitOf(actor, ctx.services),
    };
  },
});
