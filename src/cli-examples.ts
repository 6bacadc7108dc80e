// The examples every command's --help ends with, kept in one table by the command's path, each a
// line that runs as written once its <placeholders> are filled (test/cli-help.test.ts checks
// them against the commands' options, and the README lists them).
import type { Command } from 'commander';

type Example = readonly [command: string, comment?: string];

export const cliExamples: Record<string, readonly Example[]> = {
  '': [
    ['npx tessera serve', 'https://localhost:8443, data in ./data'],
    ['npx tessera workspace create --name "My events"', 'a writable workspace for your events, empty'],
    ['npx tessera key create --workspace <workspaceId> --name "My key" --preset everything'],
    [
      'npx tessera workspace create --name "Try-out" --sample',
      'to try things out: sample data, made-up people, sends no e-mail',
    ],
    ['npx tessera workspace list'],
    ['npx tessera demo key', 'the read-only demonstration key'],
  ],
  serve: [
    ['npx tessera serve', 'https://localhost:8443, data in ./data'],
    ['npx tessera serve --port 9443 --data /srv/tessera', 'another port and data folder'],
    ['npx tessera serve --database postgres://tessera@localhost:5432/tessera', 'the data in PostgreSQL'],
    ['npx tessera serve --trust-proxy --port 8080 --public-url https://events.example.org', 'behind a proxy'],
  ],
  demo: [['npx tessera demo key', 'the read-only demonstration key']],
  'demo key': [['npx tessera demo key', 'prints it; send it as Authorization: Bearer <key>']],
  workspace: [['npx tessera workspace create --name "Nordic Events"'], ['npx tessera workspace list']],
  'workspace create': [
    ['npx tessera workspace create --name "Nordic Events"'],
    [
      'npx tessera workspace create --name "Try-out" --sample',
      'to try things out: sample data, made-up people, sends no e-mail',
    ],
    ['npx tessera workspace create --name "Nordic Events" --data /srv/tessera', 'in another data folder'],
  ],
  'workspace list': [
    ['npx tessera workspace list'],
    ['npx tessera workspace list --data /srv/tessera', 'the workspaces of another data folder'],
  ],
  key: [
    ['npx tessera key create --workspace <workspaceId> --name "Dashboard" --preset dashboard'],
    ['npx tessera key list --workspace <workspaceId>'],
    ['npx tessera key revoke <apiKeyId>'],
  ],
  'key create': [
    [
      'npx tessera key create --workspace <workspaceId> --name "Door app" --scopes checkins:write,events:read',
    ],
    ['npx tessera key create --workspace <workspaceId> --name "Dashboard" --preset dashboard --expires 365'],
    [
      'npx tessera key create --workspace <workspaceId> --name "Assistant" --preset assistant --expires never',
    ],
  ],
  'key list': [
    ['npx tessera key list --workspace <workspaceId>', 'names, prefixes, scopes; never the secrets'],
  ],
  'key revoke': [['npx tessera key revoke <apiKeyId>', 'refused from the very next call']],
  'key activity': [
    ['npx tessera key activity <apiKeyId>'],
    ['npx tessera key activity <apiKeyId> --limit 20', 'the last 20 calls'],
  ],
  person: [['npx tessera person erase --workspace <workspaceId> --email ada@example.com']],
  'person erase': [
    ['npx tessera person erase --workspace <workspaceId> --email ada@example.com'],
    [
      'npx tessera person erase --workspace <workspaceId> --attendee <attendeeId>',
      'the person of that attendee',
    ],
  ],
  import: [
    ['npx tessera import --workspace <workspaceId> docs/import-example.json'],
    ['npx tessera import --workspace <workspaceId> export-from-old-system.json --dry-run', 'keeps nothing'],
  ],
  'signing-keys': [['npx tessera signing-keys rotate']],
  'signing-keys rotate': [
    ['npx tessera signing-keys rotate', 'used from the next start'],
    ['npx tessera signing-keys rotate --data /srv/tessera'],
  ],
  secrets: [['npx tessera secrets rekey --from-key-file ./old-instance.key']],
  'secrets rekey': [
    [
      'npx tessera secrets rekey --from-key-file ./old-instance.key',
      'the instance.key the secrets were made with',
    ],
    [
      'npx tessera secrets rekey --from-key-file /secure/old-secret-key --data /srv/tessera',
      'a file holding the old TESSERA_SECRET_KEY; the new one set in the environment',
    ],
    [
      'npx tessera secrets rekey --discard-unreadable',
      'the old key is lost: those endpoints need new secrets',
    ],
  ],
  migrate: [
    ['npx tessera migrate --status', 'where the database stands; changes nothing'],
    ['npx tessera migrate', 'runs the pending migrations, as a start would'],
    ['npx tessera migrate --status --database postgres://tessera@localhost:5432/tessera'],
  ],
  order: [
    ['npx tessera order mark-paid --workspace <workspaceId> <orderId>'],
    [
      'npx tessera order create --workspace <workspaceId> --event <eventId> --ticket-type <ticketTypeId> --attendee "Alan Turing <alan@example.org>" --payment paidElsewhere --method cash',
    ],
  ],
  'order create': [
    [
      'npx tessera order create --workspace <workspaceId> --event <eventId> --ticket-type <ticketTypeId> --attendee "Alan Turing <alan@example.org>" --payment paidElsewhere --method cash --reference "Receipt 17"',
      'paid at the desk: tickets valid at once',
    ],
    [
      'npx tessera order create --workspace <workspaceId> --event <eventId> --ticket-type <ticketTypeId> --attendee "Lovelace, Ada Augusta <ada@example.org>" --payment complimentary --reason speaker',
      'a first name of several words after the comma',
    ],
    [
      'npx tessera order create --workspace <workspaceId> --event <eventId> --ticket-type <ticketTypeId> --attendee "Grace Hopper <grace@example.org>" --attendee "Alan Kay <alan.kay@example.org>" --discount-code EARLY20',
      'awaiting a bank transfer',
    ],
    [
      'npx tessera order create --workspace <workspaceId> --event <eventId> --ticket-type <ticketTypeId> --attendee "Barbara Liskov <barbara@example.org>" --payment card',
      'prints checkout.paymentUrl, the link to send',
    ],
  ],
  'order mark-paid': [
    [
      'npx tessera order mark-paid --workspace <workspaceId> <orderId>',
      "with the service's TESSERA_SMTP_URL, TESSERA_MAIL_FROM and TESSERA_PUBLIC_URL set",
    ],
    [
      'npx tessera order mark-paid --workspace <workspaceId> <orderId> --no-email',
      'the service sends no e-mail',
    ],
    ['npx tessera order mark-paid --workspace <workspaceId> <orderId> --provider bank-transfer'],
    [
      'npx tessera order mark-paid --workspace <workspaceId> <orderId> --provider DNB --method transfer --reference "KID 1234"',
    ],
  ],
  backup: [
    ['npx tessera backup --to /var/backups/tessera-2026-05-01.db', 'while the service runs'],
    ['npx tessera backup --to backup.db --data /srv/tessera --force', 'replace backup.db'],
  ],
  restore: [
    ['npx tessera restore /var/backups/tessera-2026-05-01.db --data /srv/tessera', 'into an empty folder'],
  ],
  export: [
    [
      'npx tessera export --workspace <workspaceId> --event <eventId> --dataset attendees --to attendees.csv',
      'names and emails included; the file is yours alone (0600)',
    ],
    [
      'npx tessera export --workspace <workspaceId> --event <eventId> --dataset orders --format json',
      'to stdout',
    ],
    [
      'npx tessera export --workspace <workspaceId> --event <eventId> --dataset leads --sponsor <sponsorId> --to leads.csv',
      "one sponsor's leads, while its level's download is open",
    ],
  ],
};

/** A command's path below the program: "key create"; "" for the program itself. */
export function commandPath(command: Command): string {
  const names: string[] = [];
  for (let at: Command | null = command; at?.parent; at = at.parent) names.unshift(at.name());
  return names.join(' ');
}

/** The "Examples:" text of one command, comments lined up. */
function examplesText(list: readonly Example[]): string {
  const width = Math.max(0, ...list.filter(([, comment]) => comment).map(([line]) => line.length));
  const lines = list.map(([line, comment]) =>
    comment ? `  ${line.padEnd(width)}  # ${comment}` : `  ${line}`,
  );
  return `\nExamples:\n${lines.join('\n')}`;
}

/** Adds its examples to the help of the command and of every command below it. */
export function addExamples(command: Command): void {
  const list = cliExamples[commandPath(command)];
  if (list) command.addHelpText('after', examplesText(list));
  for (const sub of command.commands) addExamples(sub);
}
