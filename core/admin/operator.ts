// The operator at the command line acts without an API key: changes made through the CLI are
// logged under this name and go through invoke as API calls do (validation, the write queue,
// declared problems, the activity log), with operations marked `operator` that no key can reach.

import type * as v from 'valibot';
import type { Ctx } from '../platform/context';
import { keylessContext } from '../platform/keyless-actor';
import { invoke } from '../platform/pipeline/invoke';
import type { EventReads, InputSchema, Operation } from '../platform/pipeline/operation';
import { problem } from '../platform/problems';
import { scopes } from '../platform/scopes';
import type { Services } from '../platform/services';

/** The activity log's name for changes made at the command line. */
export const operatorName = 'operator (command line)';

/** What a command answers when its workspace is missing or is the demonstration (null: allowed). */
export interface WorkspaceRefusals {
  missing(workspaceId: string): Error;
  demonstration: (() => Error) | null;
}

export const operatorRefusals: WorkspaceRefusals = {
  missing: (workspaceId) => problem('notFound', `No workspace ${workspaceId}.`),
  demonstration: () => problem('demoWorkspace'),
};

export async function operatorContext(
  services: Services,
  workspaceId: string,
  refusals: WorkspaceRefusals = operatorRefusals,
): Promise<Ctx> {
  const workspace = await services.db
    .selectFrom('workspaces')
    .selectAll()
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!workspace) throw refusals.missing(workspaceId);
  if (workspace.demonstration === 1 && refusals.demonstration) throw refusals.demonstration();
  return contextOf(services, { id: workspaceId, name: workspace.name, createdUtc: workspace.created_utc });
}

/** The operator of a workspace about to be made (tessera workspace create): the id it will have. */
export function newWorkspaceOperator(services: Services, workspaceId: string, name: string): Ctx {
  return contextOf(services, { id: workspaceId, name, createdUtc: services.clock.now().toISOString() });
}

function contextOf(services: Services, workspace: { id: string; name: string; createdUtc: string }): Ctx {
  // Links in answers and webhooks on the public URL (TESSERA_PUBLIC_URL) when one is set; e-mail
  // with links is refused without one (core/mail/ticket-mails.ts).
  return keylessContext(services, {
    workspaceId: workspace.id,
    workspaceName: workspace.name,
    name: operatorName,
    createdUtc: workspace.createdUtc,
    // Every scope: the operator runs the service; what a key may do does not limit them. Not the
    // demonstration key: where a command may touch that workspace, it writes.
    scopes: [...scopes],
    audience: 'any',
    operator: true,
  });
}

/** Runs an operation for the operator through invoke, as a key's call runs; answers its data. */
export async function invokeAsOperator<
  I extends InputSchema,
  O extends v.GenericSchema,
  W extends EventReads,
  D,
>(operation: Operation<I, O, W, D>, operator: Ctx, input: v.InferInput<I>): Promise<D> {
  return (await invoke(operation, operator, input)).data;
}
