// What the tests of signed deliveries from API calls share: a server that delivers to this
// machine's receivers and gives an attempt the time a loaded machine may need (the tests are about
// the bodies, not timing), a workspace (with the sample data when asked), a key with every scope,
// and a local HTTPS receiver.
import { type Receiver, startReceiver } from './receiver';
import { startTestServer, type TestServer } from './server';

export interface DeliverySetup {
  t: TestServer;
  workspaceId: string;
  key: string;
  receiver: Receiver;
}

export async function startDeliverySetup(workspaceName: string, sample = false): Promise<DeliverySetup> {
  const receiver = await startReceiver();
  let t: TestServer | undefined;
  try {
    const name = workspaceName.toLowerCase().replace(/[^a-z]+/g, '-');
    t = await startTestServer({
      env: { TESSERA_SECRET_KEY: `${name}-master-key-0123456789abcdef` },
      delivery: { allowPrivate: true, timeoutMs: 10_000 },
    });
    const { workspaceId } = await t.workspace(workspaceName, sample);
    const { key } = await t.key({ workspaceId, preset: 'everything', expires: 'never' });
    return { t, workspaceId, key, receiver };
  } catch (error) {
    // The test's afterAll never learns of what started here: ended before the failure is answered.
    await closeDeliverySetup({ t, receiver });
    throw error;
  }
}

/** Ends what startDeliverySetup started (whatever of it had started). */
export async function closeDeliverySetup(setup: {
  t: TestServer | undefined;
  receiver: Receiver | undefined;
}): Promise<void> {
  await setup.t?.close();
  await setup.receiver?.close();
}
