// Examples made from JSON Schemas themselves, for the OpenAPI document's bodies and answers and
// for the webhook event types' messages: each is accepted by its schema (tests check each), with
// values a reader recognises — an id stays the same id wherever it appears, a name is a name.
import { createHash } from 'node:crypto';

type Json = Record<string, unknown>;

/** The same example id for the same field everywhere (eventId in an event and in its attendees). */
function idFor(field: string): string {
  const hex = createHash('sha256').update(field).digest('hex');
  return `0196${hex.slice(0, 4)}-${hex.slice(4, 8)}-7${hex.slice(9, 12)}-8${hex.slice(13, 16)}-${hex.slice(16, 28)}`;
}

/** Names by resource, for the `name` field every resource has. */
const namesByResource: Record<string, string> = {
  Event: 'Nordic Product Summit 2027',
  Venue: 'Oslo Konserthus',
  TicketType: 'Standard',
  AddOn: 'Conference dinner',
  Door: 'Main entrance',
  Room: 'Hall A',
  Track: 'Product',
  Speaker: 'Aiko Tanaka',
  SubmissionSpeaker: 'Aiko Tanaka',
  LeaderboardEntry: 'Ingrid Hansen',
  Pass: 'Season pass 2027',
  PassEvent: 'Nordic Product Summit 2027',
  Sponsor: 'Fjord Labs',
  SponsorLevel: 'Gold',
  LeadItem: 'Fjord Labs',
  CrewMember: 'Ingrid Hansen',
  Shift: 'Main entrance',
  Workspace: 'Nordic Events',
  InvoiceLine: 'Standard',
};

const text: Record<string, unknown> = {
  title: 'Designing for the last mile',
  slug: 'nordic-product-summit-2027',
  reference: 'K7QM2X',
  orderReference: 'K7QM2X',
  // Stripe's secrets as their shapes are (core/payments/stripe-keys.ts), plainly no real ones.
  secretKey: 'sk_test_ExampleOnlyNotARealKey0000',
  webhookSecret: 'whsec_ExampleOnlyNotARealSecret0000',
  accountId: 'acct_1ExampleOnly0000',
  accountName: 'Nordic Events AS',
  keyLast4: '0000',
  currency: 'NOK',
  vatCurrency: 'NOK',
  timeZone: 'Europe/Oslo',
  language: 'en',
  firstName: 'Ingrid',
  lastName: 'Hansen',
  company: 'Fjord Labs',
  buyerCompany: 'Fjord Labs',
  jobTitle: 'Product Manager',
  buyerName: 'Ingrid Hansen',
  description: 'Two days of talks and workshops on building products people love.',
  summary: 'How small teams ship what users need, told from three launches.',
  bio: 'Designer and researcher; ten years of product work across Tokyo and Oslo.',
  abstract: 'Three launches, one lesson: ship the smallest thing that teaches you something.',
  colour: '#4c6ef5',
  code: 'NORDIC10',
  accessCode: 'FRONTROW',
  country: 'NO',
  city: 'Oslo',
  address: 'Munkedamsveien 14',
  location: 'Ground floor, east wing',
  keyName: 'Dashboard',
  workspaceName: 'Nordic Events',
  keyPrefix: 'abk_Ab12Cd34Ef56',
  prefix: 'abk_Ab12Cd34Ef56',
  ticketTypeName: 'Standard',
  listName: 'Main entrance',
  paymentProvider: 'stripe',
  joinProvider: 'Zoom',
  nextCursor: 'eyJsIjoiYXR0ZW5kZWVzIn0.Zk3e2s1Qh7mVwB9cR0xYtA',
  cursor: 'eyJsIjoiYXR0ZW5kZWVzIn0.Zk3e2s1Qh7mVwB9cR0xYtA',
  q: 'hansen',
  scanId: 'scanner-7/0042',
  updatedSince: '2026-11-20T00:00:00Z',
  role: 'door',
  roles: 'door',
  phone: '+47 912 34 567',
  level: 'Gold',
  booth: 'Stand A1',
  note: 'Wants a demo of the analytics add-on.',
  capturedBy: 'Marte Berg',
  number: 'NPS-0042',
  sellerName: 'Nordic Events AS',
  sellerAddress: 'Storgata 1, 0155 Oslo',
  sellerVatNumber: 'NO 912 345 678 MVA',
  sellerRegistration: '912 345 678',
  footer: 'Payment within 14 days to 1503.12.34567.',
  vatNumber: 'SE556677889901',
  category: 'venue',
};

const numbers: Record<string, number> = {
  price: 3490,
  unitPrice: 3490,
  total: 6980,
  revenue: 418800,
  vat: 747.86,
  vatRate: 12,
  capacity: 500,
  taken: 120,
  remaining: 380,
  registered: 342,
  checkedIn: 210,
  notYet: 132,
  rate: 61.4,
  maxPerOrder: 10,
  sortOrder: 1,
  minutes: 45,
  attendees: 2,
  checkInId: 4711,
  after: 4711,
  limit: 100,
  pageSize: 100,
  page: 1,
  days: 30,
  percent: 10,
  amount: 500,
  perMinute: 600,
  rank: 3,
  levelRank: 3,
  rating: 3,
  reviews: 4,
  clicks: 86,
  registrations: 7,
  staffAllowance: 6,
  freeTickets: 4,
  discountCodes: 2,
  discountPercent: 20,
  needed: 4,
  assigned: 3,
  open: 1,
  windowSeconds: 60,
};

function nonNull(schema: Json): Json {
  for (const key of ['anyOf', 'oneOf'] as const) {
    const options = schema[key] as Json[] | undefined;
    if (options) return options.find((o) => o.type !== 'null') ?? options[0]!;
  }
  if (Array.isArray(schema.type)) return { ...schema, type: schema.type.find((t) => t !== 'null') };
  return schema;
}

function stringFor(schema: Json, field: string, resource: string): string {
  if (schema.format === 'uuid') return idFor(field === 'id' ? `${resource}Id` : field);
  if (schema.format === 'date-time')
    return field.startsWith('ends') || field.endsWith('EndUtc')
      ? '2027-05-02T16:00:00.000Z'
      : '2027-05-01T07:00:00.000Z';
  if (schema.format === 'date') return '2027-05-01';
  if (schema.format === 'email')
    return field === 'buyerEmail' ? 'ingrid.hansen@example.org' : 'ingrid.hansen@example.org';
  if (schema.format === 'uri') {
    if (field === 'url') return 'https://events.example.org/e/nordic-product-summit-2027';
    if (field === 'mcp') return 'https://events.example.org/mcp';
    if (field === 'docs') return 'https://events.example.org/developers';
    if (field === 'website') return 'https://fjordlabs.example.com';
    if (field === 'logoUrl') return 'https://events.example.org/logos/fjord-labs.png';
    return 'https://events.example.org/photos/aiko-tanaka.jpg';
  }
  if (typeof schema.pattern === 'string' && schema.pattern.includes('T\\d{2}:\\d{2}$'))
    return field.startsWith('ends') || field.endsWith('EndLocal') ? '2027-05-02T18:00' : '2027-05-01T09:00';
  // A webhook message id (msg_ and 32 hex characters).
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^msg_'))
    return `msg_${createHash('sha256').update(field).digest('hex').slice(0, 32)}`;
  if (field === 'name') return namesByResource[resource] ?? 'Nordic Product Summit 2027';
  const known = text[field];
  if (typeof known === 'string') return known;
  // Fields the schema types as plain text but that hold ids or addresses.
  if (/Id$/.test(field)) return idFor(field);
  if (/(^e|E)mail$/.test(field)) return 'ingrid.hansen@example.org';
  return 'Example';
}

function numberFor(schema: Json, field: string): number {
  let n = numbers[field] ?? 1;
  if (typeof schema.minimum === 'number' && n < schema.minimum) n = schema.minimum;
  if (typeof schema.maximum === 'number' && n > schema.maximum) n = schema.maximum;
  return schema.type === 'integer' ? Math.round(n) : n;
}

/**
 * An example of a schema; `components` resolves $refs, `field` and `resource` name what the value is
 * (so a name is a name of the right thing).
 */
export function exampleOf(
  schema: Json,
  components: Record<string, Json>,
  field = '',
  resource = '',
): unknown {
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return exampleOf(components[name] ?? {}, components, field, name);
  }
  const s = nonNull(schema);
  // A nullable or one-of named schema: an example of the named one.
  if (typeof s.$ref === 'string') return exampleOf(s, components, field, resource);
  if (Array.isArray(s.enum)) return s.enum[0];
  if ('const' in s) return s.const;
  switch (s.type) {
    case 'object': {
      const properties = (s.properties ?? {}) as Record<string, Json>;
      const out: Json = {};
      for (const [key, value] of Object.entries(properties))
        out[key] = exampleOf(value, components, key, resource);
      const values = s.additionalProperties;
      if (Object.keys(properties).length === 0 && values && typeof values === 'object') {
        if (field === 'answers') out[idFor('questionId')] = 'Vegetarian';
        else {
          const names = (s.propertyNames as Json | undefined)?.enum as string[] | undefined;
          const key = names?.[0] ?? (field === 'label' || field === 'title' ? 'en' : 'key');
          out[key] = exampleOf(values as Json, components, field, resource);
        }
      }
      return out;
    }
    case 'array': {
      if (field === 'languages') return ['en', 'nb'];
      const item = exampleOf((s.items ?? {}) as Json, components, field.replace(/Ids$/, 'Id'), resource);
      return [item];
    }
    case 'string':
      return stringFor(s, field, resource);
    case 'integer':
    case 'number':
      return numberFor(s, field);
    case 'boolean':
      return ['valid', 'admitted', 'main', 'reentry', 'demonstration'].includes(field);
    default:
      return null;
  }
}
