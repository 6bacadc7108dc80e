// The start page's "run the event" part: one call and one assistant request for each area whose
// writes Tessera adds to the API (marked as extensions in the reference).
import { type Html, html } from './html';

interface AreaExample {
  area: string;
  what: string;
  call: (api: string, curl: string) => string;
  ask: string;
}

const examples: AreaExample[] = [
  {
    area: 'Sponsors and leads',
    what: 'A booth captures a visitor who agreed to share (a key with the narrow leads:write scope is enough).',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $BOOTH_KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: scan-0142" \\
  -d '{"sponsorId":"'$SPONSOR'","attendeeId":"'$ATTENDEE'",
       "consent":true,"shareEmail":false,"rating":3}' \\
  ${api}/events/$EVENT/leads`,
    ask: 'Add Fjord Labs as a Gold sponsor of the summit, then capture attendee 7f3c… at its booth: they agreed to share, but not their email.',
  },
  {
    area: 'Crew and shifts',
    what: 'A volunteer takes a shift; a full or overlapping shift is refused with shiftFull or shiftClash.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -d '{"crewMemberId":"'$CREW'"}' \\
  ${api}/events/$EVENT/shifts/$SHIFT/crew`,
    ask: 'Invite Tuva Berg to the summit crew as a greeter, add a greeter shift at the main entrance from 08:00 to 10:00 on the first day for 2 people, and sign her up.',
  },
  {
    area: 'Surveys and ratings',
    what: 'An attendee answers a survey once; who answered is never shown.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: answer-1" \\
  -d '{"attendeeId":"'$ATTENDEE'","answers":{"overall":5,"recommend":9}}' \\
  ${api}/events/$EVENT/surveys/$SURVEY/answers`,
    ask: "Create a survey for the summit with a 1–5 rating of the day and a 0–10 'would you recommend us', open until Sunday 18:00; then show me its results.",
  },
  {
    area: 'Communities and members',
    what: 'A person joins a community: pending where members need approval, active otherwise.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: join-ada" \\
  -d '{"name":"Ada Berg","email":"ada@example.com"}' \\
  ${api}/communities/$COMMUNITY/members`,
    ask: "Create the community 'Bergen Design Club' with members approved by us, publish it, make 'Bergen Design Night' its meetup, add Ada Berg and approve her.",
  },
  {
    area: 'Share kit',
    what: 'A share link for an attendee; its shortUrl counts clicks, and registrations sent with its code count for them.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: kari-linkedin" \\
  -d '{"attendeeId":"'$ATTENDEE'","channel":"linkedin"}' \\
  ${api}/events/$EVENT/share-links`,
    ask: 'Make LinkedIn share links for each speaker at the summit, then show me the share-kit leaderboard.',
  },
  {
    area: 'Call for speakers',
    what: 'Accept a submission into a draft session, kept off the public page until you publish it.',
    call: (api, curl) => `${curl} -X PUT -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"status":"accepted","session":{"startsLocal":"2027-09-11T15:00","endsLocal":"2027-09-11T15:30"}}' \\
  ${api}/events/$EVENT/submissions/$SUBMISSION/status`,
    ask: 'Open the call for speakers of the summit until 15 April for talks and workshops; then accept the submissions rated 4 or more into draft sessions on the second afternoon.',
  },
  {
    area: 'Payments and invoices',
    what: 'Confirm a bank transfer: the order is paid, order.paid is sent, and its invoice is issued where the event invoices.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -H "Idempotency-Key: pay-ABC123" \\
  -d '{"method":"transfer","provider":"DNB","reference":"KID 1234"}' \\
  ${api}/events/$EVENT/orders/$ORDER/mark-paid`,
    ask: 'Switch invoicing on for the summit as Nordic Events AS with the prefix NS-2027-, mark order ABC123 paid by bank transfer, and show me its invoice.',
  },
  {
    area: 'Speakers and crew logistics',
    what: 'Request a hotel stay for a speaker; assigning, changing and cancelling it send their stay.* messages.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"speakerId":"'$SPEAKER'","checkInDate":"2027-04-30","checkOutDate":"2027-05-02"}' \\
  ${api}/events/$EVENT/stays`,
    ask: 'Book Ada Lovelace into Hotel Continental for the two nights before the summit, record her flight from London, and approve and pay her 189 GBP travel claim.',
  },
  {
    area: 'Certificates and content',
    what: 'Certificates of attendance for everyone checked in, each verifiable at its public /v/ address.',
    call: (api, curl) => `${curl} -X POST -H "Authorization: Bearer $KEY" \\
  -H "Content-Type: application/json" -d '{}' \\
  ${api}/events/$EVENT/certificates/attendance`,
    ask: 'Issue attendance certificates to everyone who checked in at the summit, and publish the keynote slides at https://example.org/keynote.pdf on the keynote session.',
  },
  {
    area: 'Removing what was made',
    what: 'Remove a room no session uses; one in use answers 409 inUse naming the sessions.',
    call: (api, curl) => `${curl} -X DELETE -H "Authorization: Bearer $KEY" \\
  ${api}/events/$EVENT/rooms/$ROOM`,
    ask: 'Our early-bird ticket is over: retire it, switch off the code SPRING, and remove the empty side room.',
  },
];

export function runTheEvent(api: string, curl: string): Html {
  return html`<h2>6. Run the event</h2>
<p>Sponsors, crew, surveys, communities, the share kit, the call for speakers, payments and invoices, speakers'
logistics, certificates and published content are run through the API too, and what was made can be removed: these
writes are Tessera's extensions of the API, marked <strong>Extension</strong> in the reference, with their own write
scopes (<code>sponsors:write</code>, <code>leads:write</code>, <code>crew:write</code>, <code>surveys:write</code>,
<code>communities:write</code>, <code>sharekit:write</code>, <code>cfp:write</code>, <code>submissions:write</code>,
<code>orders:write</code>, <code>finance:write</code>, <code>logistics:write</code>, <code>certificates:write</code>,
<code>people:write</code>; the <code>everything</code> preset holds them).</p>
${examples.map(
  (e) => html`<h3>${e.area}</h3>
<p>${e.what}</p>
<pre><code>${e.call(api, curl)}</code></pre>
<p>Or ask an assistant: <q>${e.ask}</q></p>`,
)}
<p>An assistant finds these tools with <code>list_toolsets</code> and runs them with <code>call_tool</code>, or connects
to <code>/mcp?toolsets=sponsors,crew,surveys,communities,sharekit,cfp,logistics,certificates,finance</code> to have
them listed.</p>`;
}
