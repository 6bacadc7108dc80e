// The settings of webhooks to the operator's own network (README: "Settings"): the key signing
// secrets are encrypted under (TESSERA_SECRET_KEY, else one made in the data folder), the private
// receivers allowed (TESSERA_WEBHOOKS_ALLOW) and a CA file for their certificates
// (TESSERA_WEBHOOKS_CA). Checked at start, so a mistake is a message rather than failed deliveries.
import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseReceiverAllowList, type ReceiverAllowList } from '../core/platform/receiver-allow-list';

type Env = Record<string, string | undefined>;
type Refuse = (message: string) => Error;

/** The bytes a key needs: as many as the AES-256 key derived from it. */
export const minimumSecretKeyBytes = 32;

/** TESSERA_SECRET_KEY when set (at least 32 bytes); undefined: the data folder's instance.key. */
export function secretKeyFrom(env: Env, refuse: Refuse): string | undefined {
  const key = env.TESSERA_SECRET_KEY || undefined;
  if (key === undefined) return undefined;
  const bytes = Buffer.byteLength(key, 'utf8');
  if (bytes < minimumSecretKeyBytes)
    throw refuse(
      `TESSERA_SECRET_KEY is ${bytes} bytes long; it must be at least ${minimumSecretKeyBytes}. Make one with: openssl rand -base64 32 (or leave it unset: a key is made in the data folder).`,
    );
  return key;
}

export function webhooksAllowFrom(env: Env, refuse: Refuse): ReceiverAllowList {
  return parseReceiverAllowList(env.TESSERA_WEBHOOKS_ALLOW, refuse);
}

export interface TrustedCa {
  file: string;
  /** The file's certificates, one PEM block each. */
  certificates: string[];
}

const pemBlock = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g;

/** TESSERA_WEBHOOKS_CA: a PEM file of one or more certificates, read once; null when unset. */
export function webhooksCaFrom(env: Env, refuse: Refuse): TrustedCa | null {
  const value = env.TESSERA_WEBHOOKS_CA || undefined;
  if (value === undefined) return null;
  const file = resolve(value);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw refuse(`TESSERA_WEBHOOKS_CA: ${file} cannot be read (${(error as NodeJS.ErrnoException).code}).`);
  }
  const certificates = text.match(pemBlock) ?? [];
  const notPem = () =>
    refuse(
      `TESSERA_WEBHOOKS_CA: ${file} holds no PEM certificate. Give a file of one or more "-----BEGIN CERTIFICATE-----" blocks (the receivers' CA).`,
    );
  if (certificates.length === 0) throw notPem();
  for (const certificate of certificates) {
    try {
      new X509Certificate(certificate);
    } catch {
      throw notPem();
    }
  }
  return { file, certificates };
}

/** What the start-up banner says of webhooks: where the key is, what receivers may be, the CA file. */
export function webhookBannerLines(settings: {
  dataDir: string;
  secretKey?: string;
  webhooksAllow: ReceiverAllowList;
  webhooksCa: TrustedCa | null;
}): string[] {
  const key = settings.secretKey
    ? 'TESSERA_SECRET_KEY'
    : `${resolve(settings.dataDir, 'instance.key')} (keep it with the database)`;
  const allowed = settings.webhooksAllow.entries;
  return [
    `  Webhooks:  signing secrets encrypted with ${key}`,
    allowed.length > 0
      ? `  Webhook receivers: public addresses and ${allowed.join(', ')} (TESSERA_WEBHOOKS_ALLOW)`
      : '  Webhook receivers: public addresses only (TESSERA_WEBHOOKS_ALLOW names private ones)',
    settings.webhooksCa
      ? `  Webhook CA: ${settings.webhooksCa.file} (${settings.webhooksCa.certificates.length} certificate(s) trusted for deliveries)`
      : '',
  ];
}
