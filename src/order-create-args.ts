// The arguments of `tessera order create` made into createOrder's input: one --attendee per person,
// and the payment's kind with the flags that kind takes (the operation's schema checks the rest).
import { InvalidArgumentError } from 'commander';
import type { ElsewhereMethod, OrderPaymentInput } from '../core/orders';

export interface PersonArgument {
  firstName: string;
  lastName: string;
  email: string;
}

/**
 * One --attendee, added to those before it: "First Last <email>" (the first word the first name, the
 * rest the last name) or "Last, First Names <email>" for a first name of several words.
 */
export function attendeeArgument(value: string, previous: PersonArgument[] = []): PersonArgument[] {
  const match = /^\s*([^<>]+?)\s*<\s*([^<>\s]+)\s*>\s*$/.exec(value);
  if (!match) throw new InvalidArgumentError('must be "First Last <email>" (or "Last, First <email>").');
  const [, name, email] = match as unknown as [string, string, string];
  const comma = name.indexOf(',');
  const words = name.split(/\s+/);
  const firstName = comma >= 0 ? name.slice(comma + 1).trim() : words[0]!;
  const lastName = comma >= 0 ? name.slice(0, comma).trim() : words.slice(1).join(' ');
  if (firstName === '' || lastName === '')
    throw new InvalidArgumentError('needs a first and a last name: "First Last <email>".');
  return [...previous, { firstName, lastName, email }];
}

export const paymentKinds = ['transfer', 'card', 'paidElsewhere', 'complimentary'] as const;

export interface PaymentFlags {
  payment: (typeof paymentKinds)[number];
  method?: string;
  provider?: string;
  reference?: string;
  reason?: string;
  holdMinutes?: string;
}

/** The payment createOrder takes, from the flags its kind uses; a flag another kind takes is refused. */
export function paymentOf(flags: PaymentFlags): OrderPaymentInput {
  const given = (['method', 'provider', 'reference', 'reason', 'holdMinutes'] as const).filter(
    (name) => flags[name] !== undefined,
  );
  const stray = given.filter((name) => !takes[flags.payment].includes(name));
  if (stray.length > 0)
    throw new InvalidArgumentError(
      `--payment ${flags.payment} takes no ${stray.map((name) => `--${kebab(name)}`).join(', ')}.`,
    );
  const { provider, reference, holdMinutes } = flags;
  switch (flags.payment) {
    case 'transfer':
      return { kind: 'transfer' };
    case 'card':
      return { kind: 'card', ...(holdMinutes !== undefined ? { holdMinutes: Number(holdMinutes) } : {}) };
    case 'paidElsewhere':
      return {
        kind: 'paidElsewhere',
        // As given: the operation's schema names the methods it takes when this is none of them.
        method: flags.method as ElsewhereMethod,
        ...(provider !== undefined ? { provider } : {}),
        ...(reference !== undefined ? { reference } : {}),
      };
    case 'complimentary':
      return { kind: 'complimentary', reason: flags.reason ?? '' };
  }
}

/** The flags each kind takes besides --payment. */
const takes: Record<PaymentFlags['payment'], readonly string[]> = {
  transfer: [],
  card: ['holdMinutes'],
  paidElsewhere: ['method', 'provider', 'reference'],
  complimentary: ['reason'],
};

const kebab = (name: string) => name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
