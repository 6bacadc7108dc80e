// The operator at the command line acts without an API key: changes made through the CLI are
// logged under this name and go through the same use cases and outbox as API calls.
import type { Actor } from '../platform/actor';
import type { Ctx } from '../platform/context';
import { problem } from '../platform/problems';
import { scopes } from '../platform/scopes';
import type { Services } from '../platform/services';

export async function operatorContext(services: Services, workspaceId: string): Promise<Ctx> {
  const workspace = await services.db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!workspace) throw problem('notFound', `No workspace ${workspaceId}.`);
  if (workspace.demonstration === 1) throw problem('demoWorkspace');
  const actor: Actor = {
    workspaceId,
    workspaceName: workspace.name,
    demonstration: false,
    keyId: '',
    keyName: 'operator (command line)',
    keyPrefix: '',
    keyCreatedUtc: workspace.created_utc,
    expiresUtc: null,
    scopes: [...scopes],
    legacy: false,
    ratePerMinute: services.defaultRatePerMinute,
    audience: 'any',
  };
  return {
    db: services.db,
    clock: services.clock,
    actor,
    services,
    request: { origin: 'https://localhost:8443' },
  };
}

/** Runs an operator change in one transaction. */
export async function inTransaction<T>(ctx: Ctx, work: (ctx: Ctx) => Promise<T>): Promise<T> {
  return ctx.services.db.transaction().execute((trx) => work({ ...ctx, db: trx }));
}
