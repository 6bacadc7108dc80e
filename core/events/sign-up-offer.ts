// What the public registration form of /e/{slug} offers: a published event whose form is on, its
// ticket types on sale now to the public (visibility public, or code with the access code the
// visitor entered; not crew, not retired, inside the sales window), with places left, the add-ons a
// person may choose, and the registration questions the form asks. Hidden types are the organiser's
// only. A type requiring approval is offered, saying so: its registrations wait for the organiser.
import type { Db } from '../../db/connect';
import type { Placeholders } from '../../db/prepared';
import { prepareTogether } from '../../db/reads-together';
import type { EventRow, TicketTypeRow } from '../../db/schema';
import type { Clock } from '../platform/clock';
import { toMajor } from '../platform/money';
import { modulesOf } from '../platform/pipeline/load-event';
import { placesLeft } from '../sales';
import { offersCard } from './card-offer';
import { questionOrder } from './load-questions';
import { type QuestionView, questionView } from './questions';
import { type SignUpView, signUpViewOf } from './sign-up-settings';
import { onSaleAt } from './types-on-sale';

export interface OfferedType {
  ticketTypeId: string;
  name: string;
  description: string;
  price: number;
  currency: string;
  maxPerOrder: number;
  /** null: no limit. */
  placesLeft: number | null;
  /** Opened by the access code the visitor entered. */
  byCode: boolean;
  /** Add-ons that come with the ticket (not offered again to its holder). */
  includedAddOnIds: string[];
  /** Its orders wait for the organiser's approval (status requested) before anything is issued or paid. */
  requiresApproval: boolean;
  /** Sold out, the page takes names for its waiting list. */
  waitingList: boolean;
}

/** An add-on a person may choose with their ticket. */
export interface OfferedAddOn {
  addOnId: string;
  name: string;
  description: string | null;
  price: number;
  currency: string;
  /** null: no limit. */
  placesLeft: number | null;
}

export interface SignUpOffer {
  event: EventRow;
  settings: SignUpView;
  /** Why the form takes no registrations; null when it does. */
  closed: 'formOff' | 'demonstration' | null;
  types: OfferedType[];
  /** Add-ons with places left; priced ones only where priced tickets are sold (by transfer). */
  addOns: OfferedAddOn[];
  questions: QuestionView[];
  /** An access code was entered and opened no ticket type. */
  codeUnknown: boolean;
  /** The form asks for a discount code: the event has one switched on. */
  takesDiscountCodes: boolean;
  /**
   * How a priced order may be paid: by card where the event offers it and its workspace is connected
   * to Stripe (a disconnected workspace's events offer no card), by transfer where the event offers
   * it or card is not to be had. The form asks which when both are.
   */
  payments: { card: boolean; transfer: boolean };
}

/**
 * What the page and its form need, in one read (one round trip on PostgreSQL, built once and kept
 * prepared): each form POST of an on-sale rush reads it before anything else, and each statement
 * apart was a round trip every buyer waited for. Every read finds the event by its slug, published.
 */
const offerReads = prepareTogether((db, p: Placeholders<{ slug: string; now: string }>) => {
  const published = (column: 'id' | 'workspace_id') =>
    db.selectFrom('events').select(column).where('slug', '=', p.slug).where('status', '=', 'published');
  return {
    events: {
      query: db.selectFrom('events').selectAll().where('slug', '=', p.slug).where('status', '=', 'published'),
    },
    settings: { query: db.selectFrom('event_sign_up').selectAll().where('event_id', 'in', published('id')) },
    workspaces: {
      query: db.selectFrom('workspaces').select('demonstration').where('id', 'in', published('workspace_id')),
    },
    types: {
      query: onSaleAt(
        db.selectFrom('ticket_types').selectAll().where('event_id', 'in', published('id')),
        p.now,
      ),
      order: ['sort_order', 'id'],
    },
    questions: {
      query: db
        .selectFrom('questions')
        .selectAll()
        .where('event_id', 'in', published('id'))
        .orderBy(questionOrder[0])
        .orderBy(questionOrder[1]),
      order: questionOrder,
    },
    addOns: {
      query: db
        .selectFrom('add_ons')
        .selectAll()
        .where('event_id', 'in', published('id'))
        .orderBy('sort_order')
        .orderBy('id'),
      order: ['sort_order', 'id'],
    },
    /** One discount code switched on, if any: the form then asks for one. */
    activeCodes: {
      query: db
        .selectFrom('discount_codes')
        .select('id')
        .where('event_id', 'in', published('id'))
        .where('active', '=', 1)
        .limit(1),
    },
    /** The workspace's Stripe connection: a disconnected workspace's events offer no card. */
    stripe: {
      query: db
        .selectFrom('stripe_connections')
        .select('workspace_id')
        .where('workspace_id', 'in', published('workspace_id')),
    },
  };
});

/** The offer at /e/{slug}; null when no published event is there. */
export async function signUpOffer(
  db: Db,
  clock: Clock,
  slug: string,
  accessCode?: string,
): Promise<SignUpOffer | null> {
  const now = clock.now().toISOString();
  const read = await offerReads.rows(db, { slug, now });
  const event = read.events[0];
  if (!event) return null;
  const settings = signUpViewOf(event, read.settings[0]);
  const workspace = read.workspaces[0]!;
  const code = accessCode?.trim() ?? '';
  const rows = read.types;
  const opened = (t: TicketTypeRow) =>
    t.visibility === 'public' || (t.visibility === 'code' && code !== '' && t.access_code === code);
  // Priced types are sold by bank transfer, where the event's payments module is on.
  const sells = modulesOf(event).payments;
  const types = rows.filter((t) => opened(t) && (t.price_minor === 0 || sells) && event.ends_utc > now);
  const { questions, addOns } = read;
  const card = offersCard(event.payment_methods) && read.stripe.length > 0;
  return {
    event,
    settings,
    // The demonstration workspace is read-only everywhere: its public form says so rather than
    // writing through a path its key may not.
    closed: workspace.demonstration === 1 ? 'demonstration' : settings.publicForm ? null : 'formOff',
    types: types.map((t) => ({
      ticketTypeId: t.id,
      name: t.name,
      description: t.description,
      price: toMajor(t.price_minor, event.currency),
      currency: event.currency,
      maxPerOrder: t.max_per_order,
      placesLeft: placesLeft(t.capacity, t.taken),
      byCode: t.visibility === 'code',
      includedAddOnIds: JSON.parse(t.included_add_on_ids) as string[],
      requiresApproval: t.requires_approval === 1,
      waitingList: t.waiting_list === 1,
    })),
    addOns: addOns
      .filter((a) => (a.price_minor === 0 || sells) && placesLeft(a.capacity, a.taken) !== 0)
      .map((a) => ({
        addOnId: a.id,
        name: a.name,
        description: a.description,
        price: toMajor(a.price_minor, event.currency),
        currency: event.currency,
        placesLeft: placesLeft(a.capacity, a.taken),
      })),
    // File answers need an upload, which a plain form does not make: those questions stay off it.
    questions: questions.map(questionView).filter((q) => q.kind !== 'file'),
    codeUnknown: code !== '' && !rows.some((t) => t.visibility === 'code' && t.access_code === code),
    takesDiscountCodes: read.activeCodes.length > 0,
    payments: { card, transfer: !card || event.payment_methods !== 'card' },
  };
}
