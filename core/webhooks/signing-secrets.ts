// Signing secrets of webhook endpoints (Standard Webhooks): whsec_ + Base64 of 32 random bytes,
// shown once at creation or rotation and kept only encrypted (AES-256-GCM under a key derived from
// the deployment's key: TESSERA_SECRET_KEY, else the data folder's instance.key). Every deployment
// has one since 1.0, so 503 webhooksUnavailable, kept in the contract, is no longer answered.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import type { Services } from '../platform/services';

const prefix = 'whsec_';

export function newSigningSecret(): string {
  return `${prefix}${randomBytes(32).toString('base64')}`;
}

/** The key that encrypts secrets. */
export function secretKeyOf(services: Services): Buffer {
  return services.secrets.webhookSecretKey;
}

export function encryptSecret(key: Buffer, secret: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  const sealed = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return `v1:${Buffer.concat([iv, sealed, cipher.getAuthTag()]).toString('base64')}`;
}

export function decryptSecret(key: Buffer, stored: string): string {
  const raw = Buffer.from(stored.replace(/^v1:/, ''), 'base64');
  const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
  decipher.setAuthTag(raw.subarray(raw.length - 16));
  return Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString(
    'utf8',
  );
}

/** v1,<Base64 HMAC-SHA256 of id.timestamp.body> under the secret (its Base64 part decoded). */
export function signature(secret: string, id: string, timestamp: number, body: string): string {
  const key = Buffer.from(secret.slice(prefix.length), 'base64');
  return `v1,${createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}
