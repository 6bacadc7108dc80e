// The pages a registration from /e/{slug} ends on: the tickets with their links, sold out, closed.
import type { PublicOrder } from '../../core/orders';
import { type Html, html } from './html';
import { page } from './layout';
import { signUpStyle } from './sign-up-form';
import { holderHtml } from './ticket';

const frame = (title: string, body: Html) =>
  page({ title, section: 'event', head: signUpStyle, body: html`<main class="prose">${body}</main>` });

export function registeredPage(
  eventName: string,
  slug: string,
  tickets: { holder: string | null; erased: boolean; ticketType: string; code: string; cancelled: boolean }[],
): string {
  return frame(
    `You're registered: ${eventName}`,
    html`<h1>You're registered</h1><p>for <a href="/e/${slug}">${eventName}</a>.</p>
<p>Keep each ticket's link: it is the ticket you show at the door.</p>
<ul class="tickets-done">${tickets.map(
      (t) =>
        html`<li>${holderHtml(t.holder, t.erased)}, ${t.ticketType}${t.cancelled ? ' (cancelled)' : ''}: <a href="/t/${t.code}">your ticket /t/${t.code}</a></li>`,
    )}</ul>`,
  );
}

export function ticketsNotFoundPage(slug: string): string {
  return frame(
    'No such tickets',
    html`<h1>No such tickets</h1><p>This address names no tickets of the event. <a href="/e/${slug}">Back to the event</a>.</p>`,
  );
}

export function soldOutPage(eventName: string, slug: string, detail: string, waitingList = false): string {
  return frame(
    `Sold out: ${eventName}`,
    html`<h1>Sold out</h1><p>${detail} Nothing was registered and nothing was charged.</p>
<p><a href="/e/${slug}">Back to ${eventName}</a> to choose other tickets.</p>${
      waitingList
        ? html`<p>A sold-out ticket keeps a waiting list: <a href="/e/${slug}#waiting-list">join it on the event's page</a>, and you are e-mailed when a place comes free.</p>`
        : ''
    }`,
  );
}

/** The page an order ends on: what is due and how, a card checkout's state, the tickets once paid. */
export function orderPage(
  eventName: string,
  slug: string,
  order: PublicOrder,
  returned: 'fromCheckout' | 'cancelledCheckout' | null,
): string {
  if (order.status === 'requested' || order.status === 'declined') return requestPage(eventName, slug, order);
  return frame(`Order ${order.reference}: ${eventName}`, orderBody(eventName, slug, order, returned));
}

function orderBody(
  eventName: string,
  slug: string,
  order: PublicOrder,
  returned: 'fromCheckout' | 'cancelledCheckout' | null,
): Html {
  const event = html`<a href="/e/${slug}">${eventName}</a>`;
  const amount = new Intl.NumberFormat('en', { style: 'currency', currency: order.currency }).format(
    order.total,
  );
  const due = order.status === 'pending' || order.status === 'transfer' || order.status === 'onAccount';
  const facts = html`<dl class="order-facts"><dt>Order reference</dt><dd><strong>${order.reference}</strong></dd><dt>${due ? 'Amount due' : 'Amount'}</dt><dd><strong>${amount}</strong></dd></dl>`;
  switch (order.status) {
    case 'paid':
    case 'free':
      return html`<h1>Order ${order.reference} is ${order.status === 'paid' ? 'paid' : 'confirmed'}</h1><p>Your tickets for ${event} are issued. Keep each ticket's link: it is the ticket you show at the door.</p>
<ul class="tickets-done">${order.tickets.map(
        (t) =>
          html`<li>${holderHtml(t.holder, t.erased)}, ${t.ticketType}${t.cancelled ? ' (cancelled)' : ''}: <a href="/t/${t.code}">your ticket /t/${t.code}</a></li>`,
      )}</ul>`;
    case 'expired':
      return html`<h1>This order has expired</h1><p>It was not paid in time, so its places for ${event} were given back. Nothing was charged.</p>${facts}<p><a href="/e/${slug}">Back to ${eventName}</a> to register again.</p>`;
    case 'pending':
      return order.checkout ? cardBody(event, facts, order, returned) : transferBody(event, facts, order);
    case 'cancelled':
    case 'refunded':
    case 'declined':
      return html`<h1>This order is ${order.status}</h1><p>for ${event}.</p>${facts}`;
    default:
      return transferBody(event, facts, order);
  }
}

function cardBody(
  event: Html,
  facts: Html,
  order: PublicOrder,
  returned: 'fromCheckout' | 'cancelledCheckout' | null,
): Html {
  const until = new Intl.DateTimeFormat('en', { timeStyle: 'short', timeZone: 'UTC' }).format(
    new Date(order.checkout!.holdUntil),
  );
  if (returned === 'fromCheckout')
    return html`<h1>Your payment is being confirmed</h1><p>for ${event}. This takes a moment: <a href="">reload this page</a> to see your tickets.</p>${facts}`;
  return html`<h1>${returned === 'cancelledCheckout' ? 'Your payment was not completed' : 'Your order awaits payment'}</h1><p>for ${event}.</p>${facts}
<p>Your places are held until ${until} UTC; unpaid by then, they are given back.</p>${
    order.checkout!.paymentUrl
      ? html`<p><a class="button primary" href="${order.checkout!.paymentUrl}">Pay ${order.currency} by card</a></p>`
      : ''
  }`;
}

function transferBody(event: Html, facts: Html, order: PublicOrder): Html {
  return html`<h1>Your order awaits payment</h1><p>for ${event}.</p>${facts}
<h2>How to pay</h2>${
    order.instructions
      ? html`<p class="instructions">${order.instructions}</p>`
      : html`<p>The organiser will tell you how to pay.</p>`
  }<p>Quote the order reference <strong>${order.reference}</strong> with your payment.</p>
<p>Your tickets are issued when the payment arrives.</p>`;
}

/** A request waiting for the organiser's approval (or declined by them): no payment asked yet. */
function requestPage(eventName: string, slug: string, order: { reference: string; status: string }): string {
  if (order.status === 'declined')
    return frame(
      `Request ${order.reference}: ${eventName}`,
      html`<h1>Your request was declined</h1><p>The organiser of <a href="/e/${slug}">${eventName}</a> could not approve request <strong>${order.reference}</strong>. No tickets were issued and nothing is owed; the e-mail we sent you says more.</p>`,
    );
  return frame(
    `Request received: ${eventName}`,
    html`<h1>We received your request</h1><p>for <a href="/e/${slug}">${eventName}</a>.</p>
<dl class="order-facts"><dt>Request reference</dt><dd><strong>${order.reference}</strong></dd></dl>
<p>These tickets need the organiser's approval. Your places are held while they look at your request, and there is nothing to pay yet.</p>
<h2>What happens next</h2>
<p>We have e-mailed you a confirmation of your request. Once the organiser approves it, we e-mail you again: with your tickets, or with how to pay when they have a price. Should they decline it, we let you know as well.</p>`,
  );
}

export function formTooLargePage(slug: string): string {
  return frame(
    'Form too large',
    html`<h1>The form was too large</h1><p>Nothing was registered. <a href="/e/${slug}">Back to the event</a> to try again with shorter answers.</p>`,
  );
}
