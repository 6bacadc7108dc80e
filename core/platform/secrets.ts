// Keys derived from the deployment's secret: one per purpose, so a leak of one says nothing of the others.
import { createHmac } from 'node:crypto';

export interface DeploymentSecrets {
  /** Signs paging cursors. */
  cursorKey: Buffer;
  /** Encrypts webhook signing secrets; null when the deployment configured no master key. */
  masterKey: Buffer | null;
}

export function deriveSecrets(base: Buffer, masterKey: Buffer | null): DeploymentSecrets {
  return {
    cursorKey: createHmac('sha256', base).update('tessera/cursor/v1').digest(),
    masterKey,
  };
}
