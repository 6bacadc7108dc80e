// The public page's side of the waiting list: joining a sold-out type's list (as the workspace's
// public sign-up caller, through the same operation the API's organiser uses), and finding the
// offer a link names.
import type { Db } from '../../db/connect';
import type { WaitingListEntryRow } from '../../db/schema';
import type { SignUpOffer } from '../events';
import { keylessContext } from '../platform/keyless-actor';
import { invoke } from '../platform/pipeline/invoke';
import { isProblem } from '../platform/problems';
import type { Services } from '../platform/services';
import { addToWaitingList } from './add-to-waiting-list';
import { isOfferToken, offerTokenHash } from './offer-token';

/** The name the activity log gives joins from the public page. */
const publicJoinName = 'public waiting list';

export interface PublicJoin {
  ticketTypeId: string;
  firstName: string;
  lastName: string;
  email: string;
  consent: boolean;
}

export type PublicJoinAnswer =
  | { kind: 'joined'; position: number | null; offered: boolean }
  | { kind: 'refused'; errors: { field: string; message: string }[] }
  | { kind: 'closed' };

const joinFields: Record<string, string> = {
  firstName: 'wait.firstName',
  lastName: 'wait.lastName',
  email: 'wait.email',
  consent: 'wait.consent',
};

export async function joinFromPublicPage(
  services: Services,
  origin: string,
  offer: SignUpOffer,
  join: PublicJoin,
): Promise<PublicJoinAnswer> {
  if (offer.closed) return { kind: 'closed' };
  if (!offer.types.some((t) => t.ticketTypeId === join.ticketTypeId))
    return { kind: 'refused', errors: [{ field: 'wait', message: 'That ticket type is not on sale here.' }] };
  const ctx = keylessContext(
    services,
    {
      workspaceId: offer.event.workspace_id,
      name: publicJoinName,
      createdUtc: offer.event.created_utc,
      demonstration: offer.closed === 'demonstration',
      // people:read: the person is answered their own entry.
      scopes: ['attendees:write', 'people:read'],
      publicSignUp: true,
    },
    origin,
  );
  try {
    const { data } = await invoke(addToWaitingList, ctx, {
      eventId: offer.event.id,
      ticketTypeId: join.ticketTypeId,
      firstName: join.firstName.trim(),
      lastName: join.lastName.trim(),
      email: join.email.trim(),
      consent: join.consent,
    });
    return { kind: 'joined', position: data.position, offered: data.status === 'offered' };
  } catch (error) {
    if (!isProblem(error)) throw error;
    if (error.code === 'registrationRefused')
      return { kind: 'refused', errors: [{ field: 'wait', message: error.detail }] };
    if (error.code === 'invalidRequest' || error.code === 'invalidBody') {
      const errors = (error.extras.errors ?? []) as { field: string; message: string }[];
      return {
        kind: 'refused',
        errors: errors.map((e) => ({ field: joinFields[e.field] ?? 'wait', message: e.message })),
      };
    }
    throw error;
  }
}

/** The offer a link's token names in this event, whatever its status now; null when none. */
export async function findWaitingOffer(
  db: Db,
  eventId: string,
  token: string,
): Promise<WaitingListEntryRow | null> {
  if (!isOfferToken(token)) return null;
  const row = await db
    .selectFrom('waiting_list_entries')
    .selectAll()
    .where('offer_token_hash', '=', offerTokenHash(token))
    .where('event_id', '=', eventId)
    .executeTakeFirst();
  return row ?? null;
}

/** Whether the offer still holds its place now. */
export const offerHolds = (entry: WaitingListEntryRow, now: Date): boolean =>
  entry.status === 'offered' &&
  entry.offer_expires_utc !== null &&
  entry.offer_expires_utc > now.toISOString();
