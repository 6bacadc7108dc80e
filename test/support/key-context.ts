// A workspace with a key that may do everything, and the context a use case runs in as that key:
// what tests that call operations through invoke (without the HTTP server) start from.
import { createKey } from '../../core/admin/api-keys';
import { createWorkspace } from '../../core/admin/workspaces';
import type { Ctx } from '../../core/platform/context';
import { verifyKeyId } from '../../core/platform/pipeline/authenticate';
import type { Services } from '../../core/platform/services';

export async function everythingKeyContext(
  services: Services,
  name: string,
  options: { sample?: boolean } = {},
): Promise<{ ctx: Ctx; workspaceId: string }> {
  const { workspaceId } = await createWorkspace(services.db, services.clock, { name, ...options });
  const { apiKeyId } = await createKey(services.db, services.clock, {
    workspaceId,
    name,
    preset: 'everything',
    expires: 'never',
  });
  const verified = await verifyKeyId(services, apiKeyId);
  if (!verified.ok) throw new Error('the key made for the test does not verify');
  const ctx: Ctx = {
    db: services.db,
    clock: services.clock,
    actor: verified.actor,
    services,
    request: { origin: 'https://localhost' },
  };
  return { ctx, workspaceId };
}
