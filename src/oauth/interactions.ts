// The sign-in pages behind oidc-provider's interactions: the organiser proves access with one of
// the workspace's API keys (or picks the read-only demonstration workspace), which becomes the
// account; then chooses which of that key's scopes the assistant gets (consent-choices.ts says
// what starts ticked), saved as the grant for the resource it asked for and as the request's scope.
// Nothing is granted beyond what the key holds.
import { Router } from '@koa/router';
import type Koa from 'koa';
import type { Provider } from 'oidc-provider';
import { demoKey } from '../../core/admin';
import { formToken } from '../../core/platform/form-tokens';
import { resourceUrl } from '../../core/platform/pipeline/access-tokens';
import { verifyKeyId, verifyToken } from '../../core/platform/pipeline/authenticate';
import { hasScope, isScope } from '../../core/platform/scopes';
import type { Services } from '../../core/platform/services';
import { readPageForm } from '../../rest/page-form';
import { consentPage } from '../../rest/pages/consent';
import { signInPage } from '../../rest/pages/sign-in';
import { type AuthenticationGuard, failedAuthentication } from '../http/authenticate';
import { consentChoices } from './consent-choices';
import { formTargetOf, redirectTargetOf } from './redirect-target';

/** The form sent (read once, src/http/cross-site-forms.ts may have read it); too large: 413. */
async function formOf(ctx: Koa.Context): Promise<URLSearchParams> {
  const form = await readPageForm(ctx);
  if (!form) ctx.throw(413, 'The form is too large.');
  return form;
}

export function signInRouter(services: Services, provider: Provider, guard: AuthenticationGuard): Router {
  const router = new Router({ prefix: '/oauth/sign-in/:uid' });
  router.use(interactionOf(provider));
  router.get('/', (ctx) => showStep(ctx, services, provider));
  router.post('/key', async (ctx) =>
    login(ctx, services, provider, guard, (await formOf(ctx)).get('key')?.trim() ?? ''),
  );
  router.post('/demo', (ctx) => login(ctx, services, provider, guard, demoKey.key));
  router.post('/consent', (ctx) => consent(ctx, services, provider));
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

/** Every page's headers, and the interaction read for it. */
function interactionOf(provider: Provider): Koa.Middleware {
  return async (ctx, next) => {
    ctx.set('Cache-Control', 'no-store');
    // Read once per page; the handlers use it too (describe). A sign-in gone or expired is
    // answered by describe, which reads it again to raise the provider's own error.
    ctx.state.interaction = await provider.interactionDetails(ctx.req, ctx.res).catch(() => undefined);
    const back = formTargetOf(ctx.state.interaction?.params.redirect_uri);
    ctx.set(
      'Content-Security-Policy',
      `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${back ? ` ${back}` : ''}; frame-ancestors 'none'`,
    );
    await next();
  };
}

type Described = Awaited<ReturnType<typeof describe>>;

/** The interaction's client name, where it sends the browser back to, and the resource it asks for. */
async function describe(ctx: Koa.Context, services: Services, provider: Provider) {
  const details: Awaited<ReturnType<Provider['interactionDetails']>> =
    ctx.state.interaction ?? (await provider.interactionDetails(ctx.req, ctx.res));
  const client = await provider.Client.find(String(details.params.client_id));
  const resource = String(details.params.resource ?? resourceUrl(provider.issuer, 'mcp'));
  return {
    details,
    client: {
      uid: details.uid,
      clientName: client?.clientName ?? String(details.params.client_id),
      redirectTo: redirectTargetOf(details.params.redirect_uri),
      resource,
      // The pages' forms post to /oauth/sign-in/{uid}/{action} (src/http/cross-site-forms.ts).
      formToken: formToken(
        services.secrets.formTokenKey,
        { page: `/oauth/sign-in/${details.uid}`, client: ctx.ip },
        services.clock.now(),
      ),
    },
  };
}

/** The scopes the authorization request names, as sent. */
const requestedOf = (details: Described['details']) =>
  String(details.params.scope ?? '')
    .split(' ')
    .filter(Boolean);

/**
 * The key that signed in, as it is now; a key revoked or expired since answers the sign-in page
 * again with why (and null).
 */
async function signedInKey(ctx: Koa.Context, services: Services, described: Described) {
  const verified = await verifyKeyId(services, String(described.details.session?.accountId));
  if (verified.ok) return verified.actor;
  ctx.type = 'html';
  ctx.status = 401;
  ctx.body = signInPage({ ...described.client, problem: verified.problem.detail });
  return null;
}

/** GET: the sign-in page, or once signed in the choice of scopes. */
async function showStep(ctx: Koa.Context, services: Services, provider: Provider) {
  const described = await describe(ctx, services, provider);
  ctx.type = 'html';
  if (described.details.prompt.name === 'login') {
    ctx.body = signInPage(described.client);
    return;
  }
  const key = await signedInKey(ctx, services, described);
  if (!key) return;
  ctx.body = consentPage({
    ...described.client,
    workspaceName: key.workspaceName,
    keyName: key.keyName,
    choices: consentChoices(key.scopes, requestedOf(described.details)),
  });
}

/** A key sent (or the demonstration's): the account of the sign-in, or the page again with why. */
async function login(
  ctx: Koa.Context,
  services: Services,
  provider: Provider,
  guard: AuthenticationGuard,
  token: string,
) {
  const described = await describe(ctx, services, provider);
  const verified = await verifyToken(services, token, 'rest');
  if (!verified.ok) {
    // Counted with the API's and MCP's failures: a working key is never refused by it.
    const refusedFor = await failedAuthentication(services, guard, ctx.ip);
    ctx.type = 'html';
    ctx.status = refusedFor === null ? 401 : 429;
    if (refusedFor !== null) ctx.set('Retry-After', String(refusedFor));
    ctx.body = signInPage({
      ...described.client,
      problem:
        refusedFor === null
          ? verified.problem.detail
          : `Too many failed sign-ins from this address; try again in ${refusedFor} seconds.`,
    });
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
}

/** The scopes ticked, of those the key holds: saved as the grant and as the request's scope. */
async function consent(ctx: Koa.Context, services: Services, provider: Provider) {
  const described = await describe(ctx, services, provider);
  const { details } = described;
  const key = await signedInKey(ctx, services, described);
  if (!key) return;
  const chosen = (await formOf(ctx)).getAll('scope').filter((s) => isScope(s) && hasScope(key.scopes, s));
  const grant = details.grantId
    ? await provider.Grant.find(details.grantId)
    : new provider.Grant({ accountId: key.keyId, clientId: String(details.params.client_id) });
  if (!grant) throw new Error('The grant of this sign-in is gone.');
  const requested = requestedOf(details);
  settleGrant(grant, described.client.resource, requested, chosen);
  // The code and its tokens carry what the organiser ticked: the request's scope becomes the
  // scopes it asked for beyond the API's (offline_access) and those ticked, so a scope ticked that
  // the assistant did not name (all of them, when it named none) is given too, and it learns so
  // from the token answer's scope.
  details.params.scope = [...requested.filter((s) => !isScope(s)), ...chosen].join(' ');
  await details.save(details.exp - Math.floor(Date.now() / 1000));
  const grantId = await grant.save();
  await provider.interactionFinished(
    ctx.req,
    ctx.res,
    { consent: { grantId } },
    { mergeWithLastSubmission: true },
  );
  ctx.respond = false;
}

/** Gives the grant the scopes chosen for the resource, and settles every other scope asked for as refused. */
function settleGrant(
  grant: InstanceType<Provider['Grant']>,
  resource: string,
  requested: string[],
  chosen: string[],
): void {
  if (requested.includes('offline_access')) grant.addOIDCScope('offline_access');
  // No identity is given (OAuth only, no OpenID Connect): openid and the like are settled as
  // refused, so no ID token is issued and the sign-in does not come back to this page for them.
  const identity = requested.filter((s) => !isScope(s) && s !== 'offline_access');
  if (identity.length > 0) grant.rejectOIDCScope(identity.join(' '));
  grant.addResourceScope(resource, chosen.join(' '));
  // What was asked for and not allowed is answered too (refused), so the sign-in does not ask again.
  const refused = requested.filter((s) => isScope(s) && !chosen.includes(s));
  if (refused.length > 0) grant.rejectResourceScope(resource, refused.join(' '));
  // The API's scopes are known to the authorization server too (clients register with them,
  // as MCP clients do from the resource metadata), but they belong to the resource only: as
  // identity scopes they are settled here, so the provider does not ask about them again.
  const apiScopes = [...new Set([...requested.filter(isScope), ...chosen])];
  if (apiScopes.length > 0) grant.rejectOIDCScope(apiScopes.join(' '));
}
