// Which platform makes an automation subscription. The API's own body (url, event, eventId) names
// none, so `client` is optional: as sent, else read from the User-Agent, else "unknown". Any
// platform may subscribe; its name is a short token, kept in lower case.
import * as v from 'valibot';
import type { HookClient } from '../../../db/values';

/** Recorded when the body names no platform and the User-Agent names none we know. */
export const unknownHookClient = 'unknown';

export const maxHookClientLength = 40;

/** Platforms read from a User-Agent: the name kept, and the words that give it away. */
const agentPlatforms: { client: HookClient; words: string[] }[] = [
  { client: 'zapier', words: ['zapier'] },
  { client: 'make', words: ['make', 'integromat'] },
  { client: 'n8n', words: ['n8n'] },
  { client: 'pipedream', words: ['pipedream'] },
  { client: 'ifttt', words: ['ifttt'] },
  { client: 'activepieces', words: ['activepieces'] },
];

const platformName = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

export const hookClientInput = v.pipe(
  v.string(),
  v.regex(
    platformName,
    'A platform name: letters, digits, dots, hyphens and underscores (e.g. zapier, make, n8n, pipedream).',
  ),
  v.maxLength(maxHookClientLength, `At most ${maxHookClientLength} characters.`),
  v.metadata({ pattern: platformName.source, maxLength: maxHookClientLength }),
  v.description(
    `The platform (any name: zapier, make, n8n, …); else read from the User-Agent, else "${unknownHookClient}".`,
  ),
);

/** The platform: as sent, else from the User-Agent, else "unknown". */
export function hookClientOf(sent: HookClient | undefined, userAgent: string | undefined): HookClient {
  if (sent) return sent.toLowerCase();
  const agent = userAgent?.toLowerCase() ?? '';
  return agentPlatforms.find((p) => p.words.some((w) => agent.includes(w)))?.client ?? unknownHookClient;
}
