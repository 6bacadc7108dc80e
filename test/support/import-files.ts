// Import files for tests and the bench: the documented example, read fresh each time, and a large
// event of generated attendees.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export const examplePath = join(import.meta.dirname, '..', '..', 'docs', 'import-example.json');

/** The example as a plain object, changed freely by the tests. */
export function exampleFile(): any {
  return JSON.parse(readFileSync(examplePath, 'utf8'));
}

/** One event with `attendees` tickets, two to an order, each with a name, email and an answer. */
export function largeEventFile(attendees: number, slug = 'large-import') {
  const orders = [];
  for (let o = 0; o < attendees / 2; o++) {
    orders.push({
      key: `o${o}`,
      status: 'paid',
      buyer: { name: `Buyer ${o}`, email: `buyer${o}@example.org`, company: null },
      paymentProvider: 'stripe',
      paidUtc: '2026-10-01T10:00:00Z',
      createdUtc: '2026-10-01T09:59:00Z',
      attendees: [0, 1].map((a) => ({
        key: `a${o}-${a}`,
        ticketType: 'general',
        firstName: `First${o}`,
        lastName: `Last${a}`,
        email: `person${o}-${a}@example.org`,
        company: 'Example AS',
        answers: { diet: a === 0 ? 'none' : 'vegetarian' },
      })),
    });
  }
  return {
    format: 'tessera-import',
    version: 1,
    events: [
      {
        key: 'large',
        name: 'Large import',
        slug,
        timeZone: 'Europe/Oslo',
        startsUtc: '2027-06-01T08:00:00Z',
        endsUtc: '2027-06-03T16:00:00Z',
        currency: 'EUR',
        ticketTypes: [{ key: 'general', name: 'General', price: 99, vatRate: 10 }],
        questions: [
          {
            key: 'diet',
            label: { en: 'Diet' },
            kind: 'choice',
            options: [
              { value: 'none', label: { en: 'None' } },
              { value: 'vegetarian', label: { en: 'Vegetarian' } },
            ],
          },
        ],
        orders,
      },
    ],
  };
}
