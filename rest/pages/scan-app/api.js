// The page's calls to the event's API, with the door's key, and what a refusal means in words.
import { settings } from './settings.js';

/** A call to the event's API; throws a TypeError when there is no network. */
export async function call(path, options = {}) {
  const headers = { authorization: `Bearer ${settings.key}`, ...(options.headers || {}) };
  if (options.body) headers['content-type'] = 'application/json';
  const res = await fetch(`/api/v1/events/${encodeURIComponent(settings.eventId)}${path}`, {
    method: options.method || 'GET',
    headers,
    body: options.body ? JSON.stringify(options.body) : undefined,
    cache: 'no-store',
  });
  const body = res.status === 204 ? null : await res.json().catch(() => null);
  return { status: res.status, body };
}

/** Whether a call failed for want of a network (fetch throws a TypeError then). */
export const isNetworkError = (e) => e instanceof TypeError;

/** A refused call in the door staff's words. */
export function problemText(res) {
  if (res.status === 401) return 'This door key is no longer valid: ask the organiser for a new link.';
  if (res.status === 403) return 'This door key has no check-in rights (checkins:write).';
  return res.body?.detail || `The service answered ${res.status}.`;
}
