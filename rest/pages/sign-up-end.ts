// The pages a registration from /e/{slug} ends on: the tickets with their links, sold out, closed.
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

export function awaitingTransferPage(
  eventName: string,
  slug: string,
  order: { reference: string; total: number; currency: string; paid: boolean; instructions: string | null },
): string {
  const amount = new Intl.NumberFormat('en', { style: 'currency', currency: order.currency }).format(
    order.total,
  );
  return frame(
    `Order ${order.reference}: ${eventName}`,
    order.paid
      ? html`<h1>Order ${order.reference} is paid</h1><p>Your tickets for <a href="/e/${slug}">${eventName}</a> are issued.</p>`
      : html`<h1>Your order awaits payment</h1><p>for <a href="/e/${slug}">${eventName}</a>.</p>
<dl class="order-facts"><dt>Order reference</dt><dd><strong>${order.reference}</strong></dd><dt>Amount due</dt><dd><strong>${amount}</strong></dd></dl>
<h2>How to pay</h2>${
          order.instructions
            ? html`<p class="instructions">${order.instructions}</p>`
            : html`<p>The organiser will tell you how to pay.</p>`
        }<p>Quote the order reference <strong>${order.reference}</strong> with your payment.</p>
<p>Your tickets are issued when the payment arrives.</p>`,
  );
}

export function formTooLargePage(slug: string): string {
  return frame(
    'Form too large',
    html`<h1>The form was too large</h1><p>Nothing was registered. <a href="/e/${slug}">Back to the event</a> to try again with shorter answers.</p>`,
  );
}
