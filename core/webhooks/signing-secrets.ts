// Signing secrets of webhook endpoints (Standard Webhooks): whsec_ + Base64 of 32 random bytes,
// shown once at creation or rotation and kept only encrypted (AES-256-GCM under a key derived from
// the deployment's key: TESSERA_SECRET_KEY, else the data folder's instance.key). Every deployment
// has one since 1.0, so 503 webhooksUnavailable, kept in the contract, is no longer answered.
import { createHmac, randomBytes } from 'node:crypto';

const prefix = 'whsec_';

export function newSigningSecret(): string {
  return `${prefix}${randomBytes(32).toString('base64')}`;
}

export { decryptSecret, encryptSecret, secretKeyOf } from '../platform/sealed-secrets';

export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(prefix.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
