// Nothing lost or doubled through a crash: the real `tessera serve` process sends a burst of
// confirmations to a slow SMTP server and is killed with SIGKILL in the middle of it. Restarted
// on the same data folder, it sends every message not yet marked sent (its claims let go at
// start); a message that arrives twice (sent, then the crash before the "sent" mark) carries the
// Message-ID it had the first time, so a mail client shows it once. The start-up banner says
// whether e-mail is on, and never prints the SMTP password.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { migrateToLatest } from '../../db/connect';
import { eventBody } from '../support/fixtures';
import { type SmtpTestServer, startSmtpServer } from '../support/smtp';
import {
  addUnlimitedTicketType,
  call,
  endAll,
  exited,
  openDataDir,
  registerBurst,
  serve,
  workspaceWithKey,
} from '../support/spawned';

describe('e-mail through a crash', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mail-crash-'));
  let smtp: SmtpTestServer | undefined;

  afterAll(async () => {
    await endAll();
    await smtp?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('loses no message and sends each again only with its first Message-ID after SIGKILL mid-burst', async () => {
    const people = 160;
    const perRequest = 20;
    smtp = await startSmtpServer();
    // Slow enough that the burst is still going when the plug is pulled.
    smtp.delay(40);
    const env = { TESSERA_SMTP_URL: smtp.url, TESSERA_MAIL_FROM: 'tickets@crash.test' };
    const { workspaceId, key } = await workspaceWithKey(dataDir, 'Mail crash', env);

    const first = await serve(dataDir, env);
    expect(first.banner).toMatch(new RegExp(`E-mail: +via smtp://127\\.0\\.0\\.1:${smtp.port}`));
    const event = await call(first, '/events', { key, method: 'POST', body: eventBody() });
    expect(event.status, JSON.stringify(event.body)).toBe(201);
    const eventId = event.body.eventId as string;
    const ticketTypeId = await addUnlimitedTicketType(dataDir, eventId);
    await registerBurst(
      first,
      key,
      { eventId, ticketTypeId },
      {
        people,
        perRequest,
        lastName: 'Mail',
        emailDomain: 'mail.test',
        emailTag: 'crash.mail',
      },
    );
    await smtp.waitFor(20);
    process.kill(first.child.pid!, 'SIGKILL');
    await exited(first.child);
    expect(first.child.signalCode).toBe('SIGKILL');
    const beforeRestart = smtp.received.length;
    expect(beforeRestart, 'the crash came in the middle of the burst').toBeLessThan(people);

    smtp.delay(0);
    const second = await serve(dataDir, env);
    const distinct = () => new Set(smtp!.received.map((m) => m.messageId)).size;
    // Ends as soon as every message is in; the limit only ends a wait for what never comes.
    const deadline = Date.now() + 120_000;
    while (distinct() < people && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(distinct()).toBe(people);

    // One Message-ID per person, whichever attempt brought it, and each to its own address.
    const idsOf = new Map<string, Set<string>>();
    for (const m of smtp.received) {
      expect(m.to).toHaveLength(1);
      const ids = idsOf.get(m.to[0]!) ?? new Set<string>();
      ids.add(m.messageId);
      idsOf.set(m.to[0]!, ids);
    }
    expect(idsOf.size).toBe(people);
    expect([...idsOf.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    // Repeats are at most the few in flight at the moment of the crash.
    expect(smtp.received.length - people).toBeLessThanOrEqual(8);

    await new Promise((r) => setTimeout(r, 300));
    second.child.kill('SIGTERM');
    await exited(second.child);
    const { db, close } = await openDataDir(dataDir);
    try {
      await migrateToLatest(db);
      const rows = await db
        .selectFrom('mail_messages')
        .select(['message_id', 'state'])
        .where('workspace_id', '=', workspaceId)
        .execute();
      expect(rows.filter((r) => r.state !== 'sent')).toEqual([]);
      expect(new Set(rows.map((r) => r.message_id))).toEqual(new Set(smtp.received.map((m) => m.messageId)));
    } finally {
      await close();
    }
  }, 360_000);
});

describe('start-up', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tessera-mail-banner-'));
  afterAll(async () => {
    await endAll();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('says e-mail is off without TESSERA_SMTP_URL, and names the server but never the password when set', async () => {
    const off = await serve(dataDir, { TESSERA_SMTP_URL: '', TESSERA_MAIL_FROM: '' });
    expect(off.banner).toMatch(/E-mail: +off \(set TESSERA_SMTP_URL/);
    off.child.kill('SIGTERM');
    await exited(off.child);
    const on = await serve(dataDir, {
      TESSERA_SMTP_URL: 'smtps://mailer:s3cret-Passw0rd@smtp.example.org:465',
      TESSERA_MAIL_FROM: 'tickets@example.org',
    });
    expect(on.banner).toMatch(/E-mail: +via smtps:\/\/smtp\.example\.org:465, from tickets@example\.org/);
    expect(on.banner).not.toContain('s3cret');
    expect(on.banner).not.toContain('mailer');
    on.child.kill('SIGTERM');
    await exited(on.child);
  });
});
