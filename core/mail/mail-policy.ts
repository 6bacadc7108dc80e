// Whether e-mail may go out for an event: the one place that decides, asked when a message is
// queued and again just before it is sent (a setting may have changed in between). Never when
// e-mail is off (no SMTP server named), never from the demonstration workspace or a workspace made
// with --sample (their addresses are made up; a sample workspace is known by the sample's events,
// whose ids derive from the workspace), never for an event whose sign-up settings say send_emails 0.
// Who it goes to is the other half: an erased person has no address left, so nothing is queued
// for them and what was queued is cancelled (erase-mail.ts).
import type { Db } from '../../db/connect';
import { sampleEvents } from '../../db/sample/events';
import { sampleId } from '../../db/sample/ids';
import type { OutgoingMail } from '../platform/services';

/** The sentence a sample workspace's refusal says, with what to do instead. */
export const sampleWorkspaceSendsNoEmail =
  'A workspace made with sample data (--sample) sends no e-mail: its addresses are made up. For real events, make a workspace without sample data (tessera workspace create --name NAME) and build them there.';

/** Why no e-mail goes out for the event; null when it may. */
export async function mailRefusal(
  db: Db,
  mail: OutgoingMail | undefined,
  event: { id: string; workspace_id: string },
): Promise<string | null> {
  if (!mail) return 'E-mail is off: no SMTP server is set (TESSERA_SMTP_URL).';
  return eventMailRefusal(db, event);
}

/** Whether the workspace was made with sample data: its sample events are there. */
export async function isSampleWorkspace(db: Db, workspaceId: string): Promise<boolean> {
  const sampleEvent = await db
    .selectFrom('events')
    .select('id')
    .where(
      'id',
      'in',
      sampleEvents.map((e) => sampleId(workspaceId, `event/${e.key}`)),
    )
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  return sampleEvent !== undefined;
}

/** Why no e-mail goes out for the event whatever the service's settings; null when it may. */
export async function eventMailRefusal(
  db: Db,
  event: { id: string; workspace_id: string },
): Promise<string | null> {
  const workspace = await db
    .selectFrom('workspaces')
    .select('demonstration')
    .where('id', '=', event.workspace_id)
    .executeTakeFirst();
  if (!workspace || workspace.demonstration === 1)
    return 'The demonstration workspace sends no e-mail: its addresses are made up.';
  if (await isSampleWorkspace(db, event.workspace_id)) return sampleWorkspaceSendsNoEmail;
  const signUp = await db
    .selectFrom('event_sign_up')
    .select('send_emails')
    .where('event_id', '=', event.id)
    .executeTakeFirst();
  if (signUp?.send_emails === 0) return "The event's sign-up settings say not to send e-mail.";
  return null;
}
