// TESSERA_DB_CONNECTIONS / --db-connections: a process's PostgreSQL connections, all but four of
// which may carry write transactions at once (db/connect.ts); refused outside 5 to 100.
import { describe, expect, it } from 'vitest';
import { dbConnectionsFrom, SettingsError, settingsFrom } from '../../src/settings';

describe('the database connections setting', () => {
  it('is unset by default, so the database opens with its own default', () => {
    expect(settingsFrom({}, {}).dbConnections).toBeUndefined();
  });

  it('takes the flag before the environment', () => {
    expect(settingsFrom({ dbConnections: '6' }, { TESSERA_DB_CONNECTIONS: '20' }).dbConnections).toBe(6);
    expect(settingsFrom({}, { TESSERA_DB_CONNECTIONS: '20' }).dbConnections).toBe(20);
  });

  it.each(['4', '101', '4.5', 'many', '-3'])('refuses %s, saying what it takes', (value) => {
    expect(() => dbConnectionsFrom(value, {})).toThrow(SettingsError);
    expect(() => dbConnectionsFrom(undefined, { TESSERA_DB_CONNECTIONS: value })).toThrow(
      /whole number from 5 to 100/,
    );
  });
});
