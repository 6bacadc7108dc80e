// Keys derived from the deployment's secret: one per purpose, so a leak of one says nothing of the others.
import { createHmac } from 'node:crypto';

export interface DeploymentSecrets {
  /** Signs paging cursors. */
  cursorKey: Buffer;
  /** Signs the sign-in's cookies (the OAuth interaction and session). */
  cookieKey: string;
  /** Encrypts webhook signing secrets (AES-256). */
  webhookSecretKey: Buffer;
  /** Signs the tokens the pages' forms carry (core/platform/form-tokens.ts). */
  formTokenKey: Buffer;
  /** Signs the addresses a buyer downloads their invoices at without a key (core/documents). */
  documentLinkKey: Buffer;
}

/**
 * `base` is TESSERA_SECRET_KEY when set, else the data folder's instance key. Every derivation is
 * what it was when webhook secrets needed TESSERA_SECRET_KEY: a deployment that set it keeps its
 * cursors, cookies and secrets.
 */
export function deriveSecrets(base: Buffer): DeploymentSecrets {
  return {
    cursorKey: createHmac('sha256', base).update('tessera/cursor/v1').digest(),
    cookieKey: createHmac('sha256', base).update('tessera/cookies/v1').digest('base64url'),
    webhookSecretKey: createHmac('sha256', base).update('tessera/webhook-secrets/v1').digest(),
    formTokenKey: createHmac('sha256', base).update('tessera/form-tokens/v1').digest(),
    documentLinkKey: createHmac('sha256', base).update('tessera/document-links/v1').digest(),
  };
}

/** A fingerprint of the webhook secrets' key, kept in the database: it tells whether a start has the key they were encrypted under. */
export function keyFingerprint(key: Buffer): string {
  return createHmac('sha256', key)
    .update('tessera/webhook-secrets/fingerprint/v1')
    .digest('hex')
    .slice(0, 32);
}
