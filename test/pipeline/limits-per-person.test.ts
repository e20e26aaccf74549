// Limits per person through the real gateway, identity and services: one request budget for everything a
// person signs, whatever the token: their API tokens share it, their browser session spends it too, and nobody else's
// budget moves.
import { expect, it } from 'vitest';
import { useStack } from '../support/use-stack.js';

const REQUESTS_PER_MINUTE = 10;
const stack = useStack({ REQUESTS_PER_MINUTE_PER_PERSON: String(REQUESTS_PER_MINUTE) });

async function tokenOf(person: { token: string; password: string }, name: string): Promise<string> {
  const created = await stack.api('POST', '/auth/api-tokens', { name, scope: 'read', password: person.password }, person.token);
  expect(created.status).toBe(201);
  return created.body.token as string;
}

const read = (token: string) => fetch(`${stack.base}/api/getUserData`, { headers: { authorization: `Bearer ${token}` } });

/** Reads with `token` until the gateway refuses (or twice the budget went through): how many passed, and the refusal. */
async function spendUntilRefused(token: string): Promise<{ served: number; refused?: Response }> {
  for (let served = 0; served <= 2 * REQUESTS_PER_MINUTE; served++) {
    const res = await read(token);
    if (res.status === 429) return { served, refused: res };
    expect(res.status).toBe(200);
  }
  return { served: 2 * REQUESTS_PER_MINUTE + 1 };
}

/** The 429 a person past their budget gets: Retry-After, and a message saying when to try again. */
async function expectRefused(res: Response): Promise<void> {
  expect(res.status).toBe(429);
  const retryAfter = Number(res.headers.get('retry-after'));
  expect(retryAfter).toBeGreaterThanOrEqual(1);
  expect(retryAfter).toBeLessThanOrEqual(60 / REQUESTS_PER_MINUTE);
  const body = (await res.json()) as { error: { code: string; message: string; details: { retryAfterSeconds: number } } };
  expect(body.error).toMatchObject({ code: 'gateway/rate-limited', details: { retryAfterSeconds: retryAfter } });
  expect(body.error.message).toBe(
    `Your account made more than ${REQUESTS_PER_MINUTE} requests in a minute (your API tokens and browser sessions count together). Try again in ${retryAfter} s.`,
  );
}

it('two tokens of one person share one budget, their browser session is in it too, and another person is unaffected', async () => {
  const person = await stack.signUp();
  const [first, second] = [await tokenOf(person, 'first'), await tokenOf(person, 'second')];
  const someoneElse = await stack.signUp();
  const theirToken = await tokenOf(someoneElse, 'theirs');

  // The first token spends the person's budget (what signing up read counts too).
  const { served, refused } = await spendUntilRefused(first);
  expect(served).toBeGreaterThan(0);
  // Refused before twice the budget (what refills while it spends is a few requests at most).
  expect(refused).toBeDefined();
  await expectRefused(refused!);

  // The second token has no budget of its own, and the person's browser session none either.
  await expectRefused(await read(second));
  await expectRefused(await read(person.token));

  // Someone else's token and session go through.
  expect((await read(theirToken)).status).toBe(200);
  expect((await read(someoneElse.token)).status).toBe(200);
});

it('a browser session alone is limited too', async () => {
  const person = await stack.signUp();
  const { refused } = await spendUntilRefused(person.token);
  expect(refused).toBeDefined();
  await expectRefused(refused!);
});
