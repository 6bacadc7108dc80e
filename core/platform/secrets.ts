// Keys derived from the deployment's secret: one per purpose, so a leak of one says nothing of the others.
import { createHmac } from 'node:crypto';

export interface DeploymentSecrets {
  /** Signs paging cursors. */
  cursorKey: Buffer;
  /** Signs the sign-in's cookies (the OAuth interaction and session). */
  cookieKey: string;
  /** Encrypts webhook signing secrets (AES-256); null when the deployment configured no master key. */
  webhookSecretKey: Buffer | null;
}

/** `masterKey` is TESSERA_SECRET_KEY when set; `base` is it, or the instance key of the data folder. */
export function deriveSecrets(base: Buffer, masterKey: Buffer | null): DeploymentSecrets {
  return {
    cursorKey: createHmac('sha256', base).update('tessera/cursor/v1').digest(),
    cookieKey: createHmac('sha256', base).update('tessera/cookies/v1').digest('base64url'),
    webhookSecretKey: masterKey
      ? createHmac('sha256', masterKey).update('tessera/webhook-secrets/v1').digest()
      : null,
  };
}
