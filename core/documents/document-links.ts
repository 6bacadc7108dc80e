// The address a buyer downloads an invoice or credit note at without a key (they have no account):
// /d/{token}, the token the document's id and an HMAC of it under a key of the deployment's own
// (documentLinkKey), 128 bits a guess must hit, as hard as a ticket code. Nothing is stored: the
// link of a document is the same in every e-mail and on the ticket page, and a new deployment
// secret retires them all.
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { DeploymentSecrets } from '../platform/secrets';

const idBytes = (id: string) => Buffer.from(id.replaceAll('-', ''), 'hex');

function macOf(secrets: DeploymentSecrets, invoiceId: string): Buffer {
  return createHmac('sha256', secrets.documentLinkKey)
    .update(`invoice:${invoiceId}`)
    .digest()
    .subarray(0, 16);
}

/** The document's token: 44 characters of base64url. */
export function documentToken(secrets: DeploymentSecrets, invoiceId: string): string {
  return `${idBytes(invoiceId).toString('base64url')}${macOf(secrets, invoiceId).toString('base64url')}`;
}

export const documentUrl = (origin: string, token: string): string => `${origin}/d/${token}`;

/** The document a token names, when it is one this deployment made; null for anything else. */
export function invoiceIdOfToken(secrets: DeploymentSecrets, token: string): string | null {
  if (!/^[A-Za-z0-9_-]{44}$/.test(token)) return null;
  const id = Buffer.from(token.slice(0, 22), 'base64url');
  const mac = Buffer.from(token.slice(22), 'base64url');
  if (id.length !== 16 || mac.length !== 16) return null;
  const hex = id.toString('hex');
  const invoiceId = `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  return timingSafeEqual(mac, macOf(secrets, invoiceId)) ? invoiceId : null;
}
