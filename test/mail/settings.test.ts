// The e-mail settings are checked at start, each mistake with a message that says what to give;
// e-mail is off without TESSERA_SMTP_URL, and what is printed never holds the user or password.
import { describe, expect, it } from 'vitest';
import { SettingsError, settingsFrom } from '../../src/settings';

const withEnv = (env: Record<string, string>) => settingsFrom({}, env);
const refused = (env: Record<string, string>) => {
  try {
    withEnv(env);
  } catch (error) {
    expect(error).toBeInstanceOf(SettingsError);
    return (error as Error).message;
  }
  throw new Error('not refused');
};

describe('TESSERA_SMTP_URL and TESSERA_MAIL_FROM', () => {
  it('leave e-mail off when TESSERA_SMTP_URL is unset or empty', () => {
    expect(withEnv({}).mail).toBeNull();
    expect(withEnv({ TESSERA_SMTP_URL: '', TESSERA_MAIL_FROM: 'a@b.org' }).mail).toBeNull();
  });

  it('read smtp:// (STARTTLS when offered) and smtps:// with a user and password, printed without them', () => {
    expect(
      withEnv({ TESSERA_SMTP_URL: 'smtp://127.0.0.1:2525', TESSERA_MAIL_FROM: 'tickets@example.org' }).mail,
    ).toEqual({
      smtp: {
        secure: false,
        host: '127.0.0.1',
        port: 2525,
        starttls: 'auto',
        printable: 'smtp://127.0.0.1:2525',
      },
      from: 'tickets@example.org',
    });
    const mail = withEnv({
      TESSERA_SMTP_URL: 'smtps://me%40example.org:p%40ss@mail.example.org',
      TESSERA_MAIL_FROM: 'tickets@example.org',
    }).mail!;
    expect(mail.smtp).toEqual({
      secure: true,
      host: 'mail.example.org',
      port: 465,
      user: 'me@example.org',
      pass: 'p@ss',
      starttls: 'auto',
      printable: 'smtps://mail.example.org:465',
    });
    expect(
      withEnv({ TESSERA_SMTP_URL: 'smtp://relay.local?starttls=never', TESSERA_MAIL_FROM: 'a@relay.local' })
        .mail!.smtp,
    ).toMatchObject({ port: 587, starttls: 'never' });
  });

  it('refuse what cannot be used, saying what to give', () => {
    const from = { TESSERA_MAIL_FROM: 'tickets@example.org' };
    expect(refused({ TESSERA_SMTP_URL: 'mail.example.org', ...from })).toMatch(
      /not a URL: give smtp:\/\/host:port/,
    );
    expect(refused({ TESSERA_SMTP_URL: 'https://mail.example.org', ...from })).toMatch(
      /must start with smtp:\/\/ or smtps:\/\//,
    );
    expect(refused({ TESSERA_SMTP_URL: 'smtp://mail.example.org/inbox', ...from })).toMatch(/takes no path/);
    expect(refused({ TESSERA_SMTP_URL: 'smtp://mail.example.org?tls=off', ...from })).toMatch(
      /only the query parameter starttls/,
    );
    expect(refused({ TESSERA_SMTP_URL: 'smtp://mail.example.org?starttls=maybe', ...from })).toMatch(
      /auto, required or never/,
    );
    expect(refused({ TESSERA_SMTP_URL: 'smtps://mail.example.org?starttls=never', ...from })).toMatch(
      /smtp:\/\/ only/,
    );
    expect(refused({ TESSERA_SMTP_URL: 'smtp://mail.example.org' })).toMatch(/TESSERA_MAIL_FROM is needed/);
    expect(
      refused({ TESSERA_SMTP_URL: 'smtp://mail.example.org', TESSERA_MAIL_FROM: 'Tickets <t@example.org>' }),
    ).toMatch(/must be an e-mail address/);
  });
});
