// PostgreSQL: the attendees' search text and its trigram and pair indexes move beside the table
// (issue 29). Made on expressions of the attendees' own rows (migration 0032), the two GIN indexes
// took an entry for every new row version: a door scan (which changes checked_in_utc and the change
// position, so it is never a HOT update) spent about 270 µs of the database's time in them, half the
// scan. attendee_search_values holds one row an attendee, written when the attendee is inserted
// (once per statement) or a searched value changes (a row trigger whose WHEN skips every other
// update, a scan's among them) and removed with the attendee. Old processes of a rolling upgrade
// keep searching the attendees' own expression: the same answers, without an index.
// SQLite already keeps its search text in a table of its own (attendee_search_text).
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import { type Kysely, sql } from 'kysely';
import { postgresSearchText } from '../attendee-search';
import { isPostgres } from '../dialect';

const searched = ['first_name', 'last_name', 'email', 'company', 'event_id'];

const statements = [
  `CREATE TABLE attendee_search_values (
     attendee_id text PRIMARY KEY,
     event_id text NOT NULL,
     terms text NOT NULL)`,
  `INSERT INTO attendee_search_values (attendee_id, event_id, terms)
     SELECT a.id, a.event_id, ${postgresSearchText('a')} FROM attendees a`,
  'CREATE INDEX attendee_search_values_trigrams ON attendee_search_values USING gin (terms gin_trgm_ops)',
  'CREATE INDEX attendee_search_values_pairs ON attendee_search_values USING gin (attendee_search_pairs(terms))',
  'DROP INDEX attendees_search_trigrams',
  'DROP INDEX attendees_search_pairs',
  `CREATE FUNCTION attendee_search_added() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
     INSERT INTO attendee_search_values (attendee_id, event_id, terms)
       SELECT a.id, a.event_id, ${postgresSearchText('a')} FROM added a;
     RETURN NULL; END $$`,
  `CREATE TRIGGER attendee_search_added AFTER INSERT ON attendees REFERENCING NEW TABLE AS added
     FOR EACH STATEMENT EXECUTE FUNCTION attendee_search_added()`,
  `CREATE FUNCTION attendee_search_changed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
     UPDATE attendee_search_values SET event_id = NEW.event_id, terms = ${postgresSearchText('NEW')}
       WHERE attendee_id = NEW.id;
     RETURN NULL; END $$`,
  `CREATE TRIGGER attendee_search_changed AFTER UPDATE ON attendees FOR EACH ROW
     WHEN (${searched.map((c) => `OLD.${c} IS DISTINCT FROM NEW.${c}`).join(' OR ')})
     EXECUTE FUNCTION attendee_search_changed()`,
  `CREATE FUNCTION attendee_search_removed() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN
     DELETE FROM attendee_search_values v USING removed r WHERE v.attendee_id = r.id;
     RETURN NULL; END $$`,
  `CREATE TRIGGER attendee_search_removed AFTER DELETE ON attendees REFERENCING OLD TABLE AS removed
     FOR EACH STATEMENT EXECUTE FUNCTION attendee_search_removed()`,
];

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  for (const statement of statements) await sql.raw(statement).execute(db);
}
