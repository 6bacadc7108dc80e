import * as v from 'valibot';
import { defineOperation } from '../platform/pipeline/operation';
import { dateTime, int32, noInput, rateLimitSchema, text, uuid } from '../platform/schemas';
import { scopes } from '../platform/scopes';
import { rateLimitOf } from './rate-limit';

export const workspaceSchema = v.object({
  workspaceId: uuid('The workspace id.'),
  name: text('Name of the workspace.'),
  demonstration: v.pipe(v.boolean(), v.description('True for the read-only demonstration workspace.')),
  events: int32('Count of events.'),
  publishedEvents: int32('Of which published.'),
  key: v.object({
    apiKeyId: uuid('Id of the key making this call.'),
    name: text('Name given to the key.'),
    prefix: text('The marker plus twelve characters.'),
    scopes: v.array(v.picklist(scopes)),
    createdUtc: dateTime('When the key was made.'),
    expiresUtc: v.nullable(dateTime('When it expires; null when it does not.')),
  }),
  rateLimit: rateLimitSchema,
  mcp: v.pipe(v.string(), v.url(), v.description('Address of the MCP server.')),
  docs: v.pipe(v.string(), v.url(), v.description('Address of the developer docs.')),
});

export const getWorkspace = defineOperation({
  name: 'getWorkspace',
  title: 'Workspace overview',
  description:
    'The workspace: name, event counts, demonstration flag, calling key and limit, MCP and docs addresses. Any working key may call it.',
  scope: 'any',
  effect: 'read',
  problems: [],
  input: noInput,
  output: workspaceSchema,
  async handler(ctx) {
    const { actor } = ctx;
    const counts = await ctx.db
      .selectFrom('events')
      .select((eb) => [
        eb.fn.countAll<number>().as('events'),
        eb.fn.sum<number>(eb.case().when('status', '=', 'published').then(1).else(0).end()).as('published'),
      ])
      .where('workspace_id', '=', actor.workspaceId)
      .executeTakeFirstOrThrow();
    return {
      workspaceId: actor.workspaceId,
      name: actor.workspaceName,
      demonstration: actor.demonstration,
      events: Number(counts.events),
      publishedEvents: Number(counts.published ?? 0),
      key: {
        apiKeyId: actor.keyId,
        name: actor.keyName,
        prefix: actor.keyPrefix,
        scopes: actor.scopes,
        createdUtc: actor.keyCreatedUtc,
        expiresUtc: actor.expiresUtc,
      },
      rateLimit: rateLimitOf(actor, ctx.services),
      mcp: `${ctx.request.origin}/mcp`,
      docs: `${ctx.request.origin}/developers`,
    };
  },
});
