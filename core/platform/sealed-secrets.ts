// Secrets this service keeps only encrypted (webhook endpoints' signing secrets, a workspace's Stripe
// key and signing secret): AES-256-GCM under a key derived from the deployment's key
// (TESSERA_SECRET_KEY, else the data folder's instance.key), a fresh IV each time, `v1:` + Base64.
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Services } from './services';

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

/** Seals again under a new key what an old key sealed; null when it is to be discarded (`what` names it). */
export type Reseal = (what: string, sealed: string | null) => string | null;
