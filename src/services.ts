// Builds the long-lived services: the migrated database, deployment secrets, rate counter and
// activity recorder.
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ActivityRecorder } from '../core/platform/activity';
import { type Clock, systemClock } from '../core/platform/clock';
import { RateCounter } from '../core/platform/rate-counter';
import { deriveSecrets } from '../core/platform/secrets';
import type { Services } from '../core/platform/services';
import { WriteBatcher } from '../core/platform/write-batch';
import { migrateToLatest, openDatabase } from '../db/connect';

export interface OpenServices {
  services: Services;
  close(): Promise<void>;
}

/** The deployment's base secret: TESSERA_SECRET_KEY, else one generated once into the data folder. */
function baseSecret(dataDir: string, secretKey: string | undefined): Buffer {
  if (secretKey) return Buffer.from(secretKey, 'utf8');
  const file = join(dataDir, 'instance.key');
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, randomBytes(32).toString('base64'), { mode: 0o600 });
  }
  return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64');
}

export async function openServices(options: {
  dataDir: string;
  ratePerMinute: number;
  secretKey?: string;
  clock?: Clock;
}): Promise<OpenServices> {
  const { db, close } = openDatabase(join(options.dataDir, 'tessera.db'));
  await migrateToLatest(db);
  const activity = new ActivityRecorder(db);
  const services: Services = {
    db,
    clock: options.clock ?? systemClock,
    secrets: deriveSecrets(
      baseSecret(options.dataDir, options.secretKey),
      options.secretKey ? Buffer.from(options.secretKey) : null,
    ),
    rate: new RateCounter(60),
    activity,
    writes: new WriteBatcher(db),
    defaultRatePerMinute: options.ratePerMinute,
  };
  return {
    services,
    close: async () => {
      await activity.flush();
      await close();
    },
  };
}
