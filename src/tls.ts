// TLS material: the operator's certificate when given, else a self-signed one generated once
// into the data folder (for localhost, 127.0.0.1 and ::1) and reused on every start.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { generate } from 'selfsigned';

type CertificateExtensions = NonNullable<NonNullable<Parameters<typeof generate>[1]>['extensions']>;

/** A server certificate for this machine: localhost, 127.0.0.1 and ::1. */
export const localhostServerExtensions: CertificateExtensions = [
  { name: 'basicConstraints', cA: false },
  { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
  { name: 'extKeyUsage', serverAuth: true },
  {
    name: 'subjectAltName',
    altNames: [
      { type: 2, value: 'localhost' },
      { type: 7, ip: '127.0.0.1' },
      { type: 7, ip: '::1' },
    ],
  },
];

export interface TlsMaterial {
  cert: string;
  key: string;
  /** Where the certificate is, so clients can be told to trust it. */
  certFile: string;
  selfSigned: boolean;
}

export async function loadTls(dataDir: string, certFile?: string, keyFile?: string): Promise<TlsMaterial> {
  if (certFile && keyFile) {
    return {
      cert: readFileSync(certFile, 'utf8'),
      key: readFileSync(keyFile, 'utf8'),
      certFile,
      selfSigned: false,
    };
  }
  const dir = join(dataDir, 'tls');
  const cert = join(dir, 'localhost-cert.pem');
  const key = join(dir, 'localhost-key.pem');
  if (!existsSync(cert) || !existsSync(key)) {
    mkdirSync(dir, { recursive: true });
    // Loaded only here: its X.509 library costs a start that reuses the certificate 40 ms.
    const { generate } = await import('selfsigned');
    const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate: new Date(Date.now() + 825 * 86_400_000),
      extensions: localhostServerExtensions,
    });
    writeFileSync(key, pems.private, { mode: 0o600 });
    writeFileSync(cert, pems.cert);
  }
  return {
    cert: readFileSync(cert, 'utf8'),
    key: readFileSync(key, 'utf8'),
    certFile: cert,
    selfSigned: true,
  };
}
