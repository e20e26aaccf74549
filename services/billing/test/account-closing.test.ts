// user.deleted.v1: the person deleted their account. Billing erases the e-mail, closes the account and forfeits what
// it held; the ledger stays and still balances; later events about the person settle without bringing anything back.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildEnvelope } from '@frametext/service-kit';
import { emailConfirmed, startBilling, userCreated, type TestBilling } from './helpers.js';

let billing: TestBilling;
beforeAll(async () => {
  billing = await startBilling();
});
afterAll(async () => {
  await billing?.stop();
});

const accountDeleted = (uid: string) => ({ uid, deletedAt: new Date().toISOString() });
const movements = async (userId: string) => (await billing.ledger(userId)).map((m) => `${m.kind} ${m.credits}`);
const account = (userId: string) => billing.db('accounts').where({ user_id: userId }).first();

/** Every row of billing's tables, as text. */
async function everyRowAsText(): Promise<string> {
  const tables = (await billing.db.raw<{ rows: { table_name: string }[] }>(`select table_name from information_schema.tables where table_schema = current_schema()`)).rows;
  const dumps = await Promise.all(tables.map(async ({ table_name }) => (await billing.db.raw<{ rows: { row: string }[] }>(`select t::text as row from ?? t`, [table_name])).rows.map((r) => r.row)));
  return dumps.flat().join('\n');
}

/** A user with the free 50 credits and a hold of 1 credit (10 Basic frames) for an upload in the pipeline. */
async function userWithAHold() {
  const user = userCreated();
  await billing.deliver('user.created.v1', user);
  await billing.deliver('user.email-confirmed.v1', emailConfirmed(user.uid));
  const uploadId = randomUUID();
  expect((await billing.reserve({ uploadId, userId: user.uid, engine: 'server', frames: 10 })).status).toBe(200);
  return { user, uploadId };
}

describe('user.deleted.v1', () => {
  it('erases the e-mail, closes the account and forfeits the balance; the ledger stays and still balances', async () => {
    const { user } = await userWithAHold();
    expect(await everyRowAsText()).toContain(user.email);

    await billing.deliver('user.deleted.v1', accountDeleted(user.uid));

    expect(await everyRowAsText()).not.toContain(user.email);
    expect(await account(user.uid)).toMatchObject({ email: null, closed_at: expect.any(Date), balance: 0 });
    expect(await movements(user.uid)).toEqual(['grant 50', 'reserve 1', 'forfeit 49']);
    expect(await billing.ledgerBalance(user.uid)).toBe(await billing.balance(user.uid));
    // The profile names nobody (the token is refused within seconds anyway).
    expect((await billing.get('/api/getUserData', user.uid)).body).toMatchObject({ email: '', credits: 0 });
  });

  it('releases a hold its upload\'s later event settles, forfeited at once; later events do not fail', async () => {
    const { user, uploadId } = await userWithAHold();
    const processed = randomUUID();
    expect((await billing.reserve({ uploadId: processed, userId: user.uid, engine: 'server', frames: 10 })).status).toBe(200);
    await billing.deliver('upload.processed.v1', { uploadId: processed, userId: user.uid, framesProcessed: 10, engine: 'server' });

    await billing.deliver('user.deleted.v1', accountDeleted(user.uid));
    // results deletes both uploads: the processing one's hold is released (and forfeited), the processed one's charge stays.
    await billing.deliver('upload.deleted.v1', { uploadId, userId: user.uid });
    await billing.deliver('upload.deleted.v1', { uploadId: processed, userId: user.uid });
    expect(await billing.reservation(uploadId)).toMatchObject({ status: 'settled', settled_by: 'deleted', credits_released: 1 });
    expect(await billing.reservation(processed)).toMatchObject({ status: 'settled', settled_by: 'processed', credits_captured: 1 });
    expect(await movements(user.uid)).toEqual(['grant 50', 'reserve 1', 'reserve 1', 'capture 1', 'forfeit 48', 'release 1', 'forfeit 1']);
    expect(await billing.balance(user.uid)).toBe(0);
    expect(await billing.ledgerBalance(user.uid)).toBe(0);

    // Later events about the person are handled (not dead-lettered) and change nothing.
    const late = randomUUID();
    await billing.deliver('upload.cancelled.v1', { uploadId: late, userId: user.uid, reason: 'account-deleted' });
    await billing.deliver('upload.failed.v1', { uploadId, userId: user.uid, reason: 'The video could not be read.', stage: 'extraction' });
    await billing.deliver('user.created.v1', user);
    await billing.deliver('user.email-confirmed.v1', emailConfirmed(user.uid));
    expect(await account(user.uid)).toMatchObject({ email: null, balance: 0 });
    expect(await movements(user.uid)).toEqual(['grant 50', 'reserve 1', 'reserve 1', 'capture 1', 'forfeit 48', 'release 1', 'forfeit 1']);
  });

  it('refuses a new hold on a closed account (403), holding nothing', async () => {
    const { user } = await userWithAHold();
    await billing.deliver('user.deleted.v1', accountDeleted(user.uid));
    const res = await billing.reserve({ uploadId: randomUUID(), userId: user.uid, engine: 'server', frames: 10 });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('billing/account-closed');
    expect(await movements(user.uid)).toEqual(['grant 50', 'reserve 1', 'forfeit 49']);
  });

  it('closes an account billing never heard of, so a user.created.v1 or user.email-confirmed.v1 arriving afterwards stores no e-mail and grants nothing', async () => {
    const user = userCreated();
    await billing.deliver('user.deleted.v1', accountDeleted(user.uid));
    await billing.deliver('user.created.v1', user);
    await billing.deliver('user.email-confirmed.v1', emailConfirmed(user.uid));
    expect(await account(user.uid)).toMatchObject({ email: null, balance: 0, closed_at: expect.any(Date) });
    expect(await movements(user.uid)).toEqual([]);
  });

  it('is replay-safe: a redelivery and a re-publication forfeit nothing twice', async () => {
    const { user } = await userWithAHold();
    const envelope = buildEnvelope('user.deleted.v1', accountDeleted(user.uid));
    await billing.publish(envelope);
    await billing.waitHandled(envelope.id);
    const closedAt = (await account(user.uid)).closed_at as Date;
    await billing.publish(envelope);
    await billing.deliver('user.deleted.v1', accountDeleted(user.uid));
    // A marker behind them: once it is handled, the copies before it have been too.
    await billing.deliver('user.deleted.v1', accountDeleted(randomUUID()));
    expect(await movements(user.uid)).toEqual(['grant 50', 'reserve 1', 'forfeit 49']);
    expect((await account(user.uid)).closed_at).toEqual(closedAt);
  });
});
