// oidc-provider's storage (its Adapter interface), kept in the service's own database: one row per
// record of each model (Client, Interaction, Session, Grant, AuthorizationCode, RefreshToken, ...),
// its payload as JSON. Expired rows are never answered, and are purged by the scheduled clean-up.
/** What tells the time (the service's clock). */
interface Clock {
  now(): Date;
}

import type { Db } from './connect';

type Payload = Record<string, unknown>;

export class OauthStore {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly model: string,
  ) {}

  private now(): string {
    return this.clock.now().toISOString();
  }

  async upsert(id: string, payload: Payload, expiresIn?: number): Promise<void> {
    const expires = expiresIn ? new Date(this.clock.now().getTime() + expiresIn * 1000).toISOString() : null;
    const row = {
      model: this.model,
      id,
      payload: JSON.stringify(payload),
      grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
      uid: typeof payload.uid === 'string' ? payload.uid : null,
      expires_utc: expires,
      consumed_utc: null,
    };
    await this.db
      .insertInto('oauth_records')
      .values(row)
      .onConflict((oc) =>
        oc.columns(['model', 'id']).doUpdateSet({
          payload: row.payload,
          grant_id: row.grant_id,
          uid: row.uid,
          expires_utc: row.expires_utc,
        }),
      )
      .execute();
  }

  private async findWhere(column: 'id' | 'uid', value: string): Promise<Payload | undefined> {
    const row = await this.db
      .selectFrom('oauth_records')
      .select(['payload', 'expires_utc', 'consumed_utc'])
      .where('model', '=', this.model)
      .where(column, '=', value)
      .executeTakeFirst();
    if (!row || (row.expires_utc !== null && row.expires_utc <= this.now())) return undefined;
    const payload = JSON.parse(row.payload) as Payload;
    if (row.consumed_utc !== null) payload.consumed = Math.floor(Date.parse(row.consumed_utc) / 1000);
    return payload;
  }

  find(id: string): Promise<Payload | undefined> {
    return this.findWhere('id', id);
  }

  findByUid(uid: string): Promise<Payload | undefined> {
    return this.findWhere('uid', uid);
  }

  /** No device flow here: user codes are never issued. */
  async findByUserCode(_userCode: string): Promise<Payload | undefined> {
    return undefined;
  }

  async consume(id: string): Promise<void> {
    await this.db
      .updateTable('oauth_records')
      .set({ consumed_utc: this.now() })
      .where('model', '=', this.model)
      .where('id', '=', id)
      .execute();
  }

  async destroy(id: string): Promise<void> {
    await this.db.deleteFrom('oauth_records').where('model', '=', this.model).where('id', '=', id).execute();
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.db.deleteFrom('oauth_records').where('grant_id', '=', grantId).execute();
  }
}

/** Removes records past their expiry (the scheduled clean-up). */
export async function purgeExpiredOauthRecords(db: Db, now: Date): Promise<number> {
  const result = await db
    .deleteFrom('oauth_records')
    .where('expires_utc', '<=', now.toISOString())
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Whether a grant (a sign-in's consent) is still in force: neither expired nor revoked. JWT access
 * tokens are kept nowhere, so they name their grant and are refused once it is gone (a reused
 * authorization code, a revoked refresh token).
 */
export async function grantInForce(db: Db, grantId: string, now: Date): Promise<boolean> {
  const row = await db
    .selectFrom('oauth_records')
    .select('expires_utc')
    .where('model', '=', 'Grant')
    .where('id', '=', grantId)
    .executeTakeFirst();
  return row !== undefined && (row.expires_utc === null || row.expires_utc > now.toISOString());
}
