// A certificate authority made for one test run, and a receiver certificate it signs (localhost,
// 127.0.0.1, ::1). vitest's global set-up makes them before any test process starts and points
// NODE_EXTRA_CA_CERTS at the authority, so the dispatcher (Node's own https, Node's own trust
// store) trusts the tests' HTTPS receivers as it would a real receiver's certificate.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'selfsigned';
import { localhostServerExtensions } from '../../src/tls';

export interface TestCaFiles {
  dir: string;
  caCert: string;
  receiverCert: string;
  receiverKey: string;
}

export function testCaFiles(dir: string): TestCaFiles {
  return {
    dir,
    caCert: join(dir, 'ca.pem'),
    receiverCert: join(dir, 'receiver-cert.pem'),
    receiverKey: join(dir, 'receiver-key.pem'),
  };
}

export async function makeTestCa(dir: string): Promise<TestCaFiles> {
  const files = testCaFiles(dir);
  mkdirSync(dir, { recursive: true });
  const notAfterDate = new Date(Date.now() + 2 * 86_400_000);
  const ca = await generate([{ name: 'commonName', value: 'Tessera test CA' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true, critical: true },
      { name: 'keyUsage', keyCertSign: true, cRLSign: true, critical: true },
    ],
  });
  const receiver = await generate([{ name: 'commonName', value: 'localhost' }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    ca: { key: ca.private, cert: ca.cert },
    extensions: localhostServerExtensions,
  });
  writeFileSync(files.caCert, ca.cert);
  writeFileSync(files.receiverCert, receiver.cert);
  writeFileSync(files.receiverKey, receiver.private);
  return files;
}
