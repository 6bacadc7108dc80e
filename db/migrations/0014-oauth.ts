// What the assistant sign-in (the OAuth server, oidc-provider) keeps: registered clients, sign-in
// interactions, sessions, grants, codes and refresh tokens, each a JSON record of its model with
// its expiry. Access tokens are JWTs and are not kept.
// biome-ignore-all lint/suspicious/noExplicitAny: migrations must not depend on the current Database type.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('oauth_records')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    // Looked up by: the grant they belong to (revoking a grant ends its tokens), an interaction's uid.
    .addColumn('grant_id', 'text')
    .addColumn('uid', 'text')
    .addColumn('expires_utc', 'text')
    .addColumn('consumed_utc', 'text')
    .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oauth_records_grant').on('oauth_records').column('grant_id').execute();
  await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['model', 'uid']).execute();
  await db.schema.createIndex('oauth_records_expiry').on('oauth_records').column('expires_utc').execute();
}
