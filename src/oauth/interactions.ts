// The sign-in pages behind oidc-provider's interactions: the organiser proves access with one of
// the workspace's API keys (or picks the read-only demonstration workspace), which becomes the
// account; then chooses which of that key's scopes the assistant gets, saved as the grant for the
// resource it asked for. Nothing is granted beyond what the key holds.
import { Router } from '@koa/router';
import type Koa from 'koa';
import type { Provider } from 'oidc-provider';
import getRawBody from 'raw-body';
import { demoKey } from '../../core/admin/demo-workspace';
import { verifyToken } from '../../core/platform/authenticate';
import { isScope } from '../../core/platform/scopes';
import type { Services } from '../../core/platform/services';
import { consentPage, signInPage } from '../../rest/pages/sign-in';

async function formOf(ctx: Koa.Context): Promise<URLSearchParams> {
  const text = await getRawBody(ctx.req, { limit: 16 * 1024, encoding: 'utf8' });
  return new URLSearchParams(text);
}

export function signInRouter(services: Services, provider: Provider): Router {
  const router = new Router({ prefix: '/oauth/sign-in/:uid' });
  router.use(async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.set(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    await next();
  });

  /** The interaction's client name and the resource it asks for. */
  const describe = async (ctx: Koa.Context) => {
    const details = await provider.interactionDetails(ctx.req, ctx.res);
    const client = await provider.Client.find(String(details.params.client_id));
    const resource = String(details.params.resource ?? `${provider.issuer}/mcp`);
    return { details, clientName: client?.clientName ?? String(details.params.client_id), resource };
  };

  router.get('/', async (ctx) => {
    const { details, clientName, resource } = await describe(ctx);
    ctx.type = 'html';
    if (details.prompt.name === 'login') {
      ctx.body = signInPage({ uid: details.uid, clientName, resource });
      return;
    }
    const key = await keyRow(services, String(details.session?.accountId));
    const requested = new Set(String(details.params.scope ?? '').split(' '));
    ctx.body = consentPage({
      uid: details.uid,
      clientName,
      resource,
      workspaceName: key.workspaceName,
      keyName: key.keyName,
      scopes: key.scopes.map((scope) => ({ scope, requested: requested.has(scope) })),
    });
  });

  const login = async (ctx: Koa.Context, token: string) => {
    const { details, clientName, resource } = await describe(ctx);
    const verified = await verifyToken(services, token, 'rest');
    if (!verified.ok) {
      ctx.type = 'html';
      ctx.status = 401;
      ctx.body = signInPage({ uid: details.uid, clientName, resource, problem: verified.problem.detail });
      return;
    }
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { login: { accountId: verified.actor.keyId } },
      {
        mergeWithLastSubmission: false,
      },
    );
    ctx.respond = false;
  };
  router.post('/key', async (ctx) => login(ctx, (await formOf(ctx)).get('key')?.trim() ?? ''));
  router.post('/demo', async (ctx) => login(ctx, demoKey.key));

  router.post('/consent', async (ctx) => {
    const { details, resource } = await describe(ctx);
    const accountId = String(details.session?.accountId);
    const key = await keyRow(services, accountId);
    const chosen = (await formOf(ctx)).getAll('scope').filter((s) => isScope(s) && key.scopes.includes(s));
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId, clientId: String(details.params.client_id) });
    if (!grant) throw new Error('The grant of this sign-in is gone.');
    const requested = String(details.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    if (requested.includes('offline_access')) grant.addOIDCScope('offline_access');
    grant.addResourceScope(resource, chosen.join(' '));
    // What was asked for and not allowed is answered too (refused), so the sign-in does not ask again.
    const refused = requested.filter((s) => s !== 'offline_access' && !chosen.includes(s));
    if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
    const grantId = await grant.save();
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    );
    ctx.respond = false;
  });

  router.post('/abort', async (ctx) => {
    await provider.interactionFinished(
      ctx.req,
      ctx.res,
      { error: 'access_denied', error_description: 'The organiser did not allow it.' },
      { mergeWithLastSubmission: false },
    );
    ctx.respond = false;
  });
  return router;
}

/** The key that signed in: its workspace, name and the scopes it holds now. */
async function keyRow(services: Services, keyId: string) {
  const row = await services.db
    .selectFrom('api_keys')
    .innerJoin('workspaces', 'workspaces.id', 'api_keys.workspace_id')
    .select(['api_keys.name as keyName', 'api_keys.scopes', 'workspaces.name as workspaceName'])
    .where('api_keys.id', '=', keyId)
    .executeTakeFirstOrThrow();
  return {
    keyName: row.keyName,
    workspaceName: row.workspaceName,
    scopes: (JSON.parse(row.scopes) as string[]).filter(isScope),
  };
}
