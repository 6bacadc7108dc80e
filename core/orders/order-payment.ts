// How an order the organiser takes is paid: by bank transfer (awaited, as the public form's paid
// orders are), by card through Stripe Checkout (the buyer is sent a payment link; places held until
// it expires), paid already elsewhere (cash at the desk, a card terminal, an invoice settled outside:
// the tickets are valid at once, through the same path as mark-paid), or complimentary (a guest, a
// speaker: nothing charged, the reason kept and the order counted apart from free registrations).
import * as v from 'valibot';
import { checkoutHoldLimits } from '../payments';
import { oneLine } from '../platform/schemas';

/** Ways a payment made outside Tessera is recorded (confirmPayment's methods). */
export const elsewhereMethods = ['cash', 'card', 'onAccount', 'transfer', 'other'] as const;

/** Who took a payment made outside Tessera, as the organiser names them. */
export const paymentProvider = (description: string) =>
  v.pipe(v.string(), oneLine, v.trim(), v.minLength(1), v.maxLength(100), v.description(description));

/** A payment's own reference: personal data (it may name the payer), kept and erased with the buyer. */
export const paymentReference = (description: string) =>
  v.optional(v.pipe(v.string(), oneLine, v.maxLength(200), v.description(description)));

export const orderPaymentSchema = v.pipe(
  v.variant('kind', [
    v.object({
      kind: v.pipe(v.literal('transfer'), v.description('Awaiting a bank transfer: status transfer.')),
    }),
    v.object({
      kind: v.pipe(
        v.literal('card'),
        v.description(
          'By card (Stripe Checkout): pending, places held; checkout.paymentUrl is the link to send.',
        ),
      ),
      holdMinutes: v.optional(
        v.pipe(
          v.number(),
          v.integer(),
          v.minValue(checkoutHoldLimits.min),
          v.maxValue(checkoutHoldLimits.max),
          v.description('Minutes the link holds the places, 30 to 1440. Default: the setting (30).'),
        ),
      ),
    }),
    v.object({
      kind: v.pipe(
        v.literal('paidElsewhere'),
        v.description('Paid already, outside Tessera: status paid, tickets valid at once, invoice issued.'),
      ),
      method: v.pipe(
        v.picklist(elsewhereMethods),
        v.description('cash, card (a terminal), onAccount (an invoice paid outside), transfer or other.'),
      ),
      provider: v.optional(
        paymentProvider("Who took the payment (the desk, the card terminal's bank). Default: organiser."),
      ),
      reference: paymentReference(
        "The payment's reference (a receipt's number). Personal data: erased with the buyer.",
      ),
    }),
    v.object({
      kind: v.pipe(
        v.literal('complimentary'),
        v.description('Given free on purpose (a guest, a speaker): status free, 0 charged, counted apart.'),
      ),
      reason: v.pipe(
        v.string(),
        oneLine,
        v.trim(),
        v.minLength(1),
        v.maxLength(200),
        v.description('Why it is free, as the organiser says it: "speaker", "press".'),
      ),
    }),
  ]),
  v.description(
    'Tessera extension: how the order is paid. Default {"kind":"transfer"}. An order whose total is 0 (a discount code of 100 %) is free whatever kind is sent.',
  ),
);

export type OrderPayment = v.InferOutput<typeof orderPaymentSchema>;
/** A payment as a caller sends it (the command line's, src/order-create-args.ts). */
export type OrderPaymentInput = v.InferInput<typeof orderPaymentSchema>;
export type ElsewhereMethod = (typeof elsewhereMethods)[number];
