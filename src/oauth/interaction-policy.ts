// When the sign-in asks the organiser: oidc-provider's own prompts (sign in; consent when scopes
// asked for are not yet granted), and one more. An assistant that names no scope of the API would
// otherwise skip consent and be refused for want of any scope; instead the consent page offers the
// key's scopes with the reads that show no personal data ticked, and what is ticked becomes the
// request's scope (see interactions.ts).
import { interactionPolicy } from 'oidc-provider';
import { isScope } from '../../core/platform/scopes';

const { base, Check } = interactionPolicy;

export function signInPolicy() {
  const policy = base();
  policy
    .get('consent')
    ?.checks.add(
      new Check('rs_scopes_unnamed', 'the client named no scope of the API: the organiser chooses', (ctx) =>
        ![...ctx.oidc.requestParamScopes].some(isScope) && !ctx.oidc.result?.consent
          ? Check.REQUEST_PROMPT
          : Check.NO_NEED_TO_PROMPT,
      ),
    );
  return policy;
}
