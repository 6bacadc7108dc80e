// The `tessera` command's tree: serve, demo key, workspace create, key create/list/revoke/activity,
// person erase, import, signing-keys rotate, secrets rekey, order mark-paid, backup, restore, export,
// migrate, each with examples in its --help.
// Answers are JSON on stdout for scripts; src/cli.ts runs the tree and says any mistake.

import { open, readFile } from 'node:fs/promises';
import { Command, InvalidArgumentError, Option } from 'commander';
import {
  createKeyOperation,
  createWorkspaceOperation,
  demoKey,
  erasePerson,
  expiryChoices,
  findWorkspace,
  invokeAsOperator,
  KeyRequestError,
  keyActivity,
  keyWorkspaceId,
  keyWorkspaceRefusals,
  listKeys,
  listWorkspaces,
  markOrderPaid,
  newWorkspaceOperator,
  operatorContext,
  operatorRefusals,
  rekeyAllSecrets,
  revokeKeyOperation,
  sampleSendsNoEmail,
  takeOrder,
  type WorkspaceRefusals,
} from '../core/admin';
import { importFile } from '../core/import';
import type { Ctx } from '../core/platform/context';
import { isUuid, newId } from '../core/platform/ids';
import { parseKey } from '../core/platform/keys';
import { presets } from '../core/platform/scopes';
import type { Services } from '../core/platform/services';
import { tesseraVersion } from '../core/platform/version';
import { secretKeysOfFile } from '../core/webhooks';
import { makeBackup } from './backup/make-backup';
import { restoreBackup } from './backup/restore-backup';
import { addExamples } from './cli-examples';
import { commandName } from './command-name';
import { checkOperations, commandOperations } from './declarations';
import { runExport } from './export-command';
import { mailSettingsFrom } from './mail/mail-settings';
import { migrate, migrateStatus } from './migrate-command';
import { attendeeArgument, type PersonArgument, paymentKinds, paymentOf } from './order-create-args';
import { openServices } from './services';
import {
  checkoutHoldFrom,
  databaseFrom,
  dataDirFrom,
  printableDatabase,
  publicOrigin,
  SettingsError,
  settingsFrom,
  stripeApiFrom,
} from './settings';
import { rotateSigningKeys } from './signing-keys';
import { secretKeyFrom, webhookBannerLines } from './webhook-settings';

function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** The --data flag to repeat in a printed command, when one was given. */
function dataFlag(data: string | undefined): string {
  return data ? ` --data ${JSON.stringify(data)}` : '';
}

function uuidArgument(value: string): string {
  if (parseKey(value))
    throw new InvalidArgumentError("is an API key: give the key's id (key list shows it).");
  if (!isUuid(value)) throw new InvalidArgumentError('must be a UUID.');
  return value.toLowerCase();
}

/** What an operator command knows of the service it acts for: flags, then the environment. */
interface ServiceFlags {
  data?: string;
  database?: string;
  /** --public-url, where a command takes it; TESSERA_PUBLIC_URL otherwise. */
  publicUrl?: string;
  /** False with --no-email: the service sends no e-mail, so the command queues none. */
  email?: boolean;
}

/**
 * The e-mail an operator command may queue, as the running service would queue it (the service
 * sends it): with the service's settings (TESSERA_SMTP_URL, TESSERA_MAIL_FROM) and links on its
 * public URL. Without them, a change that would queue e-mail is refused, saying what to give.
 */
function operatorMail(flags: ServiceFlags, services: Services): void {
  const mail = mailSettingsFrom(process.env, (message) => new SettingsError(message));
  const origin = publicOrigin(flags.publicUrl ?? process.env.TESSERA_PUBLIC_URL);
  if (origin) services.publicOrigin = origin;
  if (flags.email === false) return;
  if (mail) services.mail = { from: mail.from, publicOrigin: origin ?? null };
  const missing = [
    mail
      ? ''
      : "This change queues e-mail (a ticket's confirmation, which the running service sends), but this command was not given the service's e-mail settings: run it with the service's TESSERA_SMTP_URL and TESSERA_MAIL_FROM in its environment (under systemd: those of /etc/tessera/tessera.env, see docs/operations.md), or add --no-email if the service sends no e-mail.",
    origin
      ? ''
      : "E-mail links to the ticket's page, and no public URL is set: give TESSERA_PUBLIC_URL (or --public-url) the https address the public reaches the service at, such as https://events.example.org, so no link points at localhost.",
  ].filter(Boolean);
  if (missing.length > 0) services.mailRefused = `${missing.join(' ')} Nothing was changed.`;
}

/** Opens the database (the data folder's, or --database) for one command and closes it afterwards. */
async function withServices<T>(flags: ServiceFlags, work: (s: Services) => Promise<T>) {
  const opened = await openServices({
    dataDir: dataDirFrom(flags.data),
    database: databaseFrom(flags.database),
    ratePerMinute: 600,
    secretKey: secretKeyFrom(process.env, (message) => new SettingsError(message)),
    // A card order taken here speaks to Stripe and holds its places as the service's would.
    stripeApi: stripeApiFrom(process.env.TESSERA_STRIPE_API_URL),
    checkoutHoldMinutes: checkoutHoldFrom(process.env.TESSERA_CHECKOUT_HOLD_MINUTES),
  });
  try {
    operatorMail(flags, opened.services);
    return await work(opened.services);
  } finally {
    await opened.close();
  }
}

/**
 * Runs an operator command: opens the database, makes the operator context of the workspace (the
 * demonstration refused unless the refusals allow it) and hands it to work, which invokes the
 * command's operation.
 */
function asOperator<T>(
  flags: ServiceFlags,
  workspaceId: string | ((s: Ctx['services']) => Promise<string>),
  work: (operator: Ctx) => Promise<T>,
  refusals: WorkspaceRefusals = operatorRefusals,
) {
  return withServices(flags, async (s) => {
    const id = typeof workspaceId === 'string' ? workspaceId : await workspaceId(s);
    return work(await operatorContext(s, id, refusals));
  });
}

/** The e-mail flags of a command that queues e-mail for the running service (operatorMail). */
const publicUrlOption = () =>
  new Option(
    '--public-url <url>',
    "the service's public https origin, for the links its e-mail carries (env TESSERA_PUBLIC_URL)",
  );
const noEmailOption = () =>
  new Option('--no-email', 'the service sends no e-mail: queue none (else its e-mail settings are needed)');
const dataOption = () => new Option('--data <dir>', 'data folder (default ./data, env TESSERA_DATA)');
const databaseOption = () =>
  new Option(
    '--database <url>',
    'PostgreSQL URL (env TESSERA_DATABASE_URL); default: tessera.db (SQLite) in the data folder',
  );

/**
 * Every mistake is answered as JSON on stderr ({ error, detail }), argument-parser ones too: the
 * parser's own text is kept for --help and --version only.
 */
let parserMessage = '';
/** What the argument parser wrote (its mistakes, --help, --version), for src/cli.ts to say. */
export const parserOutput = () => parserMessage;

export const program = new Command('tessera')
  .description('Tessera: self-hosted event management (REST API + MCP server).')
  .version(tesseraVersion, '-V, --version', 'print the version (one across the package, OpenAPI and MCP)')
  .configureOutput({
    writeErr: (text) => (parserMessage += text),
    writeOut: (text) => process.stdout.write(text),
  })
  .exitOverride()
  // Before any command: the operations the commands run must be declared as invoke can honour.
  .hook('preAction', () => checkOperations(commandOperations));

program
  .command('serve')
  .description('Start the HTTPS service (REST at /api/v1, MCP at /mcp).')
  .option('--port <n>', 'port (default 8443, env PORT)')
  .option('--host <h>', 'interface to listen on (default localhost)')
  .addOption(dataOption())
  .addOption(databaseOption())
  .option(
    '--db-connections <n>',
    'PostgreSQL connections of this process, all but four may write at once (default 10, env TESSERA_DB_CONNECTIONS)',
  )
  .option(
    '--tls-cert <file>',
    'TLS certificate (PEM); without it a self-signed one is made in the data folder',
  )
  .option('--tls-key <file>', 'TLS private key (PEM), with --tls-cert')
  .option('--trust-proxy', 'run behind a TLS-terminating proxy: honour X-Forwarded-*, refuse plain HTTP')
  .option(
    '--public-url <url>',
    'https origin the public reaches the service at; links in answers use it (env TESSERA_PUBLIC_URL)',
  )
  .action(async (flags) => {
    const settings = settingsFrom(flags);
    // Loaded here, so the other commands do not load the HTTPS server, Koa and the MCP SDK.
    const { startServer } = await import('./server');
    const server = await startServer(settings);
    const lines = [
      `Tessera is running.`,
      `  REST API:  ${server.restUrl}`,
      `  MCP:       ${server.mcpUrl}`,
      `  Docs:      ${server.publicOrigin}/developers`,
      `  Data:      ${settings.dataDir}`,
      settings.database ? `  Database:  ${printableDatabase(settings.database)} (PostgreSQL)` : '',
      `  Demonstration key (read-only workspace): ${server.demoKey}`,
      server.certFile
        ? `  Self-signed certificate: ${server.certFile} (trust it, e.g. curl --cacert, NODE_EXTRA_CA_CERTS)`
        : '',
      `Try: curl --cacert ${server.certFile ?? '<your CA>'} -H "Authorization: Bearer ${server.demoKey}" ${server.restUrl}/me`,
    ];
    lines.push(
      settings.mail
        ? `  E-mail:    via ${settings.mail.smtp.printable}, from ${settings.mail.from}`
        : '  E-mail:    off (set TESSERA_SMTP_URL and TESSERA_MAIL_FROM to send tickets to attendees).',
    );
    // Who may read /metrics: the token, and the networks allowed without it.
    const metricsReaders =
      settings.metrics &&
      [settings.metrics.token ? 'TESSERA_METRICS_TOKEN' : '', ...settings.metrics.allow]
        .filter(Boolean)
        .join(', ');
    lines.push(
      `  Health:    ${server.publicOrigin}/healthz and /readyz`,
      metricsReaders
        ? `  Metrics:   ${server.publicOrigin}/metrics, for ${metricsReaders}`
        : '  Metrics:   off (set TESSERA_METRICS_TOKEN or TESSERA_METRICS_ALLOW to serve /metrics).',
    );
    lines.push(...webhookBannerLines(settings));
    if (settings.trustProxy && !settings.publicUrl)
      lines.push(
        `  Assistant sign-in: its tokens' issuer is ${server.publicOrigin}; behind a proxy set --public-url to the address clients use.`,
      );
    if (server.services.delivery.allowPrivate)
      lines.push(
        'WARNING: TESSERA_WEBHOOKS_ALLOW_PRIVATE=1 lets webhooks reach loopback and private addresses. Tests and local development only.',
      );
    lines.push(
      'Make a workspace of your own for your events (writable, empty) and a key for it:',
      `  ${commandName} workspace create --name "My events"${dataFlag(flags.data)}`,
      `  ${commandName} key create --workspace <workspaceId> --name "My key" --preset everything${dataFlag(flags.data)}`,
      'To try things out, a workspace filled with sample data (made-up people: it sends no e-mail):',
      `  ${commandName} workspace create --name "Try-out" --sample${dataFlag(flags.data)}`,
    );
    process.stdout.write(`${lines.filter(Boolean).join('\n')}\n`);
    const stop = async () => {
      await server.close();
      process.exit(0);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });

program
  .command('demo')
  .description('The demonstration workspace.')
  .command('key')
  .description('Print the published demonstration key (read-only).')
  // The key is the same in every data folder; --data is taken as every command takes it.
  .addOption(dataOption())
  .action(() => {
    process.stdout.write(`${demoKey.key}\n`);
  });

const workspace = program.command('workspace').description('Manage workspaces.');
workspace
  .command('create')
  .description(
    'Create a workspace; prints JSON { workspaceId, name, sample, sendsEmail }. For real events make it without --sample: a sample workspace sends no e-mail.',
  )
  .requiredOption('--name <name>', 'name of the workspace')
  .option(
    '--sample',
    'to try things out: fill it with the same kind of data as the demonstration workspace (made-up people: it sends no e-mail)',
  )
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    const made = await withServices(flags, (s) =>
      invokeAsOperator(createWorkspaceOperation, newWorkspaceOperator(s, newId(), flags.name), {
        name: flags.name,
        sample: flags.sample === true,
      }),
    );
    if (made.sample) process.stderr.write(`Note: ${sampleSendsNoEmail}\n`);
    print(made);
  });

workspace
  .command('list')
  .description(
    'List the workspaces of the data folder as JSON: id, name, whether it is the demonstration or was made with sample data, whether it sends e-mail, events, keys.',
  )
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    print(await withServices(flags, (s) => listWorkspaces(s.db)));
  });

const key = program.command('key').description('Manage API keys.');
key
  .command('create')
  .description(
    'Create an API key; prints JSON { apiKeyId, key, prefix, scopes, expiresUtc }. The key is shown once.',
  )
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .requiredOption('--name <name>', 'name of the key (shown in the activity log)')
  .addOption(new Option('--preset <preset>', 'a starting set of scopes').choices(Object.keys(presets)))
  .option('--scopes <list>', 'comma-separated scopes, e.g. events:read,attendees:read')
  .option('--legacy <list>', 'make a key as before per-area scopes (read,write); its scopes are rewritten')
  .addOption(
    new Option('--expires <days>', 'expiry in days, or never').choices([...expiryChoices]).default('90'),
  )
  .option('--rate <n>', 'calls a minute for this key (default TESSERA_RATE_LIMIT)')
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    const split = (s: string | undefined) =>
      s === undefined
        ? undefined
        : s
            .split(',')
            .map((x) => x.trim())
            .filter(Boolean);
    print(
      await asOperator(
        flags,
        flags.workspace,
        (operator) =>
          invokeAsOperator(createKeyOperation, operator, {
            name: flags.name,
            preset: flags.preset,
            scopes: split(flags.scopes),
            legacy: split(flags.legacy),
            expires: flags.expires,
            ratePerMinute: flags.rate === undefined ? undefined : Number(flags.rate),
          }),
        keyWorkspaceRefusals,
      ),
    );
  });
key
  .command('list')
  .description("List a workspace's keys (never the secrets) as JSON.")
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    print(
      await withServices(flags, async (s) => {
        if (!(await findWorkspace(s.db, flags.workspace)))
          throw new KeyRequestError(`No workspace ${flags.workspace}.`);
        return listKeys(s.db, s.clock, flags.workspace);
      }),
    );
  });
key
  .command('revoke')
  .description('Revoke a key; it is refused (401 keyRevoked) from the very next call.')
  .argument('<apiKeyId>', "the key's id", uuidArgument)
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (id, flags) => {
    print(
      await asOperator(
        flags,
        (s) => keyWorkspaceId(s.db, id),
        (operator) => invokeAsOperator(revokeKeyOperation, operator, { apiKeyId: id }),
        // Any key may be revoked, the demonstration workspace's too (start-up restores that one).
        { ...operatorRefusals, demonstration: null },
      ),
    );
  });
key
  .command('activity')
  .description(
    "The key's recent calls (time, route or tool, outcome, duration, source), newest first, as JSON.",
  )
  .argument('<apiKeyId>', "the key's id", uuidArgument)
  .option('--limit <n>', 'how many (default 200)', '200')
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (id, flags) => {
    const limit = Number(flags.limit);
    if (!Number.isInteger(limit) || limit < 1)
      throw new KeyRequestError('--limit must be a whole number of at least 1.');
    print(await withServices(flags, (s) => keyActivity(s.db, id, limit)));
  });

const person = program.command('person').description("People's data.");
person
  .command('erase')
  .description(
    "Erase a person's data everywhere in the workspace (tickets, orders they bought, pass holdings, speaker profile, sponsors' leads, community memberships, crew, invoice buyers, call-for-speakers submissions, share-kit sharers, stays, travel, expense claims, certificates, messages already recorded); sends attendee.erased.",
  )
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .option('--email <address>', "the person's email address")
  .option('--attendee <id>', "one of the person's attendee ids", uuidArgument)
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    print(
      await asOperator(flags, flags.workspace, (operator) =>
        erasePerson(operator, { email: flags.email, attendeeId: flags.attendee }),
      ),
    );
  });

program
  .command('import')
  .description(
    'Load events and everything under them (and communities) from an import file, in one transaction; prints JSON { created, updated, removed, unchanged, messages, ... }. The same file again changes nothing. A bad file imports nothing and lists every problem with its path.',
  )
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .argument(
    '<file>',
    'the import file (JSON; its format: GET /api/v1/import-schema.json, docs/import-example.json)',
  )
  .option('--dry-run', 'check the file and say what it would change, keeping nothing')
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (file, flags) => {
    // The path, not the bytes: the import reads the file in chunks, never holding it whole (and
    // refuses one that is not UTF-8, as the API refuses such a body). Said now if it cannot be read.
    try {
      const handle = await open(file);
      await handle.read({ buffer: Buffer.alloc(1) }).finally(() => handle.close());
    } catch (error) {
      throw new KeyRequestError(
        `Cannot read ${file}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}.`,
      );
    }
    print(
      await asOperator(flags, flags.workspace, (operator) =>
        importFile(operator, { path: file }, { dryRun: flags.dryRun === true }),
      ),
    );
  });

program
  .command('signing-keys')
  .description('The keys access tokens from an assistant sign-in are signed with (in DATA/oauth).')
  .command('rotate')
  .description(
    'Make a new signing key; the previous one still verifies tokens issued before. Takes effect when the service next starts. Prints JSON { signingKid, verifyingKids }.',
  )
  .addOption(dataOption())
  .action(async (flags) => {
    print(await rotateSigningKeys(dataDirFrom(flags.data)));
  });

program
  .command('secrets')
  .description(
    'The key webhook signing secrets and Stripe keys are encrypted under (TESSERA_SECRET_KEY, else DATA/instance.key).',
  )
  .command('rekey')
  .description(
    "Re-encrypt every webhook signing secret, and each workspace's Stripe key and Stripe webhook signing secret, under this start's key (TESSERA_SECRET_KEY, else DATA/instance.key), from the old key in a file: an old instance.key, or a file holding the old TESSERA_SECRET_KEY. With the old key lost, --discard-unreadable forgets the secrets instead (give those endpoints new ones: POST /webhooks/{webhookId}/secret; connect Stripe again: PUT /payments/stripe). Run it with the servers stopped. Prints JSON { endpoints, stripeConnections, reencrypted, discarded }.",
  )
  .option('--from-key-file <file>', 'the key the secrets were encrypted under')
  .option('--discard-unreadable', 'forget the secrets no key given opens (the old key is lost)')
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    if (!flags.fromKeyFile && !flags.discardUnreadable)
      throw new SettingsError(
        'Give --from-key-file with the old key, or --discard-unreadable if it is lost.',
      );
    const oldKeys = flags.fromKeyFile
      ? secretKeysOfFile(
          await readFile(flags.fromKeyFile, 'utf8').catch((error: NodeJS.ErrnoException) => {
            throw new SettingsError(`--from-key-file: ${flags.fromKeyFile} cannot be read (${error.code}).`);
          }),
        )
      : [];
    const opened = await openServices({
      dataDir: dataDirFrom(flags.data),
      database: databaseFrom(flags.database),
      ratePerMinute: 600,
      secretKey: secretKeyFrom(process.env, (message) => new SettingsError(message)),
      keyCheck: false,
    });
    try {
      const { db, secrets, clock } = opened.services;
      print(
        await rekeyAllSecrets(db, oldKeys, secrets.webhookSecretKey, clock.now(), {
          discardUnreadable: flags.discardUnreadable === true,
        }),
      );
    } finally {
      await opened.close();
    }
  });

const order = program.command('order').description('Orders.');
order
  .command('mark-paid')
  .description(
    "Confirm payment of a pending, on-account, transfer or requested order; sends order.paid and attendee.registered, issues its invoice where the event invoices, and queues each ticket's e-mail for the running service to send, as the API does: run it with the service's TESSERA_SMTP_URL, TESSERA_MAIL_FROM and TESSERA_PUBLIC_URL (or give --no-email), else it is refused and changes nothing.",
  )
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .argument('<orderId>', 'the order id', uuidArgument)
  .option('--provider <name>', 'who took the payment', 'manual')
  .option('--method <method>', 'transfer, onAccount, card, cash or other (default: what the order awaited)')
  .option('--reference <text>', "the payment's reference (personal data, erased with the buyer)")
  .addOption(publicUrlOption())
  .addOption(noEmailOption())
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (orderId, flags) => {
    print(
      await asOperator(flags, flags.workspace, (operator) =>
        markOrderPaid(operator, orderId, flags.provider, {
          method: flags.method,
          reference: flags.reference,
        }),
      ),
    );
  });

order
  .command('create')
  .description(
    "Take an order of one ticket type for the people named, as the API's createOrder does: awaiting a bank transfer (default), paid elsewhere (cash at the desk, a card terminal: tickets valid at once, invoice issued), complimentary (a guest, a speaker: nothing charged) or by card (answers checkout.paymentUrl, the link to send; places held); a discount code off. Queues its e-mail for the running service to send, as mark-paid does (the service's TESSERA_SMTP_URL, TESSERA_MAIL_FROM and TESSERA_PUBLIC_URL, or --no-email). Answers the order.",
  )
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .requiredOption('--event <id>', 'event id', uuidArgument)
  .requiredOption('--ticket-type <id>', "the people's ticket type", uuidArgument)
  .requiredOption(
    '--attendee <person>',
    'a person, "First Last <email>" or "Last, First Names <email>"; once per ticket',
    attendeeArgument,
  )
  .addOption(new Option('--payment <kind>', 'how it is paid').choices(paymentKinds).default('transfer'))
  .option('--method <method>', 'paidElsewhere: cash, card (a terminal), onAccount, transfer or other')
  .option('--provider <name>', 'paidElsewhere: who took the payment (default: organiser)')
  .option(
    '--reference <text>',
    "paidElsewhere: the payment's reference (personal data, erased with the buyer)",
  )
  .option('--reason <text>', 'complimentary: why it is free ("speaker", "press")')
  .option('--hold-minutes <n>', 'card: minutes the link holds the places, 30 to 1440 (default 30)')
  .option('--discount-code <code>', 'a discount code of the event, as the public form takes it')
  .option('--buyer-company <name>', "the buyer's company, for the invoice")
  .addOption(publicUrlOption())
  .addOption(noEmailOption())
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    const payment = paymentOf(flags);
    print(
      await asOperator(flags, flags.workspace, (operator) =>
        takeOrder(operator, {
          eventId: flags.event,
          attendees: flags.attendee.map((person: PersonArgument) => ({
            ticketTypeId: flags.ticketType,
            ...person,
          })),
          ...(flags.discountCode !== undefined ? { discountCode: flags.discountCode } : {}),
          ...(flags.buyerCompany !== undefined ? { buyerCompany: flags.buyerCompany } : {}),
          payment,
        }),
      ),
    );
  });

program
  .command('backup')
  .description(
    "Copy the database (consistently, while the service runs) and the data folder's keys into one file; prints JSON { file, bytes, version, madeUtc, tables, rows, files }. On PostgreSQL the file holds the data folder's files and the database is pg_dump's.",
  )
  .requiredOption('--to <file>', 'the backup file to make (refused if it exists, unless --force)')
  .option('--force', 'replace the file if it exists')
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    print(
      await makeBackup({
        to: flags.to,
        dataDir: dataDirFrom(flags.data),
        database: databaseFrom(flags.database),
        force: flags.force === true,
      }),
    );
  });

program
  .command('restore')
  .description(
    'Bring a backup back into a new or empty data folder (never over a deployment); prints JSON { dataDir, version, madeUtc, tables, rows, files, notes }. Then start the service on that folder.',
  )
  .argument('<file>', 'the backup file (made by tessera backup)')
  .addOption(dataOption())
  .action(async (file, flags) => {
    print(await restoreBackup({ from: file, dataDir: dataDirFrom(flags.data) }));
  });

program
  .command('export')
  .description(
    "Write an event's attendees, orders, check-ins or leads as CSV or JSON, names and emails included (erased people stay erased); to stdout, or with --to to a file only you may read, printing JSON { file, dataset, format, rows }.",
  )
  .requiredOption('--workspace <id>', 'workspace id', uuidArgument)
  .requiredOption('--event <id>', 'event id', uuidArgument)
  .requiredOption('--dataset <name>', 'attendees, orders, check-ins or leads')
  .option('--format <format>', 'csv or json', 'csv')
  .option('--sponsor <id>', "leads: one sponsor's, if its level's lead download is open", uuidArgument)
  .option('--to <file>', 'write to this file (mode 0600) instead of stdout')
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    const request = {
      eventId: flags.event,
      dataset: flags.dataset,
      format: flags.format,
      sponsorId: flags.sponsor,
    };
    const answer = await asOperator(
      flags,
      flags.workspace,
      (operator) => runExport(operator, request, flags.to),
      {
        ...operatorRefusals,
        demonstration: null,
      },
    );
    if (answer) print(answer);
  });

program
  .command('migrate')
  .description(
    "Run the database's pending migrations (an upgraded version also runs them when it starts); prints JSON { database, version, ran, applied, latestApplied, pending }.",
  )
  .option(
    '--status',
    'say where the database stands, changing nothing: JSON { database, version, applied, latestApplied, pending, newer }',
  )
  .addOption(dataOption())
  .addOption(databaseOption())
  .action(async (flags) => {
    const where = { dataDir: dataDirFrom(flags.data), database: databaseFrom(flags.database) };
    print(flags.status ? await migrateStatus(where) : await migrate(where));
  });

addExamples(program);
