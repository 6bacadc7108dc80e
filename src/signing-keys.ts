// The keys access tokens are signed with (ES256), kept in the data folder (DATA/oauth/signing-keys.json,
// 0600): made on first start, rotated with `tessera signing-keys rotate`. The first key signs; the
// one before it still verifies, so tokens issued just before a rotation keep working until they expire.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { exportJWK, generateKeyPair, type JWK } from 'jose';
import { newId } from '../core/platform/ids';

export interface SigningKeys {
  /** Private keys, newest (the signing one) first. */
  keys: JWK[];
}

const fileOf = (dataDir: string) => join(dataDir, 'oauth', 'signing-keys.json');

async function newKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair('ES256', { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: newId(), alg: 'ES256', use: 'sig' };
}

function save(dataDir: string, keys: SigningKeys): void {
  mkdirSync(join(dataDir, 'oauth'), { recursive: true, mode: 0o700 });
  writeFileSync(fileOf(dataDir), `${JSON.stringify(keys, null, 2)}\n`, { mode: 0o600 });
}

export async function loadSigningKeys(dataDir: string): Promise<SigningKeys> {
  const file = fileOf(dataDir);
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8')) as SigningKeys;
  const keys = { keys: [await newKey()] };
  save(dataDir, keys);
  return keys;
}

/** A new signing key; the previous one is kept for verifying, any older one is dropped. */
export async function rotateSigningKeys(
  dataDir: string,
): Promise<{ signingKid: string; verifyingKids: string[] }> {
  const current = await loadSigningKeys(dataDir);
  const keys = { keys: [await newKey(), ...current.keys.slice(0, 1)] };
  save(dataDir, keys);
  return { signingKid: keys.keys[0]!.kid!, verifyingKids: keys.keys.map((k) => k.kid!) };
}

/** The public half of each key: what verifies a token. */
export function publicKeys(keys: SigningKeys): { keys: JWK[] } {
  return {
    keys: keys.keys.map(({ kty, crv, x, y, kid, alg, use }) => ({ kty, crv, x, y, kid, alg, use })),
  };
}
