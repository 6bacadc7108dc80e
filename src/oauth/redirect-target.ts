// Where a sign-in sends the browser back to: the redirect_uri of the authorization request. The
// pages name it so a person sees where they will be sent, and their policy lets forms lead there.
const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

export interface RedirectTarget {
  /** The host (with its port) for a web address, or the app's own scheme ("com.example.app:"). */
  shown: string;
  /** What kind of place that is, when the host alone does not say it. */
  note?: string;
}

export function redirectTargetOf(redirectUri: unknown): RedirectTarget | undefined {
  if (typeof redirectUri !== 'string' || !URL.canParse(redirectUri)) return undefined;
  const url = new URL(redirectUri);
  if (url.protocol === 'https:' || url.protocol === 'http:') {
    return loopbackHosts.has(url.hostname)
      ? { shown: url.host, note: 'an app on this computer' }
      : { shown: url.host };
  }
  return { shown: url.protocol, note: 'an app on this device' };
}

/**
 * Where the forms' answers finally lead. Browsers hold the redirects after a form to form-action
 * too, so the policy names that origin (or, for an app's own scheme such as cursor://, the scheme),
 * or the browser would stop at the last step.
 */
export function formTargetOf(redirectUri: unknown): string | undefined {
  if (typeof redirectUri !== 'string' || !URL.canParse(redirectUri)) return undefined;
  const url = new URL(redirectUri);
  return url.protocol === 'https:' || url.protocol === 'http:' ? url.origin : url.protocol;
}
