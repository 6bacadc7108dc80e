// The e-mail settings (README: "Settings"): TESSERA_SMTP_URL names the SMTP server and
// TESSERA_MAIL_FROM the sender's address; without TESSERA_SMTP_URL e-mail is off. Checked at
// start, so a typo is a clear message rather than messages failing later.
export interface SmtpSettings {
  /** smtps: TLS from the first byte (port 465 by default); smtp: STARTTLS when the server offers it. */
  secure: boolean;
  host: string;
  port: number;
  user?: string;
  pass?: string;
  /**
   * smtp:// only, from ?starttls=: 'auto' (the default: STARTTLS when the server offers it),
   * 'required' (refuse to send without it), 'never' (plain text even when offered: a relay on loopback).
   */
  starttls: 'auto' | 'required' | 'never';
  /** smtp://host:port, what the banner and the logs show: never the user or password. */
  printable: string;
}

export interface MailSettings {
  smtp: SmtpSettings;
  /** The sender's address: From: "{event name}" <from>. */
  from: string;
}

const starttlsValues = ['auto', 'required', 'never'] as const;

/** Null when e-mail is off; throws `fail(message)` for a setting that cannot be used. */
export function mailSettingsFrom(
  env: Record<string, string | undefined>,
  fail: (message: string) => Error,
): MailSettings | null {
  const value = env.TESSERA_SMTP_URL || undefined;
  if (value === undefined) return null;
  const shape = 'smtp://host:port or smtps://user:password@host:465';
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw fail(`TESSERA_SMTP_URL is not a URL: give ${shape}.`);
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:')
    throw fail(`TESSERA_SMTP_URL must start with smtp:// or smtps://: give ${shape}.`);
  if (!url.hostname) throw fail(`TESSERA_SMTP_URL names no host: give ${shape}.`);
  if ((url.pathname !== '' && url.pathname !== '/') || url.hash)
    throw fail(`TESSERA_SMTP_URL takes no path: give ${shape}.`);
  const secure = url.protocol === 'smtps:';
  const unknown = [...url.searchParams.keys()].filter((k) => k !== 'starttls');
  if (unknown.length > 0)
    throw fail(`TESSERA_SMTP_URL takes only the query parameter starttls, not ${unknown.join(', ')}.`);
  const starttls = url.searchParams.get('starttls') ?? 'auto';
  if (!(starttlsValues as readonly string[]).includes(starttls))
    throw fail('In TESSERA_SMTP_URL, starttls is auto, required or never.');
  if (secure && starttls !== 'auto')
    throw fail('In TESSERA_SMTP_URL, starttls applies to smtp:// only (smtps:// is TLS from the start).');
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const from = env.TESSERA_MAIL_FROM?.trim();
  if (!from)
    throw fail('TESSERA_MAIL_FROM is needed with TESSERA_SMTP_URL: the address e-mail is sent from.');
  if (!isAddress(from))
    throw fail(`TESSERA_MAIL_FROM must be an e-mail address such as tickets@example.org, not "${from}".`);
  return {
    smtp: {
      secure,
      host: url.hostname.replace(/^\[|\]$/g, ''),
      port,
      user: url.username ? decodeURIComponent(url.username) : undefined,
      pass: url.password ? decodeURIComponent(url.password) : undefined,
      starttls: starttls as SmtpSettings['starttls'],
      printable: `${url.protocol}//${url.hostname}:${port}`,
    },
    from,
  };
}

/** A bare address (local@domain), nothing a header could be bent with. */
function isAddress(value: string): boolean {
  return /^[^\s@<>",;:()[\]\\]+@[^\s@<>",;:()[\]\\]+$/.test(value) && value.length <= 254;
}
