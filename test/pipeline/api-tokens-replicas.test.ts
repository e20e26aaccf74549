// A person's request budget holds across gateway replicas (issues 17 and 29): two gateways, the stack's own and a
// second one in its own process, in front of the same identity and Postgres, count one budget per person, for all
// their tokens and their browser session together.
import { beforeAll, expect, it } from 'vitest';
import { useStack } from '../support/use-stack.js';

const REQUESTS_PER_MINUTE = 10;
const stack = useStack({ REQUESTS_PER_MINUTE_PER_PERSON: String(REQUESTS_PER_MINUTE) });
let gateways: string[];

beforeAll(async () => {
  gateways = [stack.base, await stack.addGatewayProcess()];
}, 120_000);

async function readWith(gateway: string, token: string): Promise<Response> {
  return fetch(`${gateway}/api/getUserData`, { headers: { authorization: `Bearer ${token}` } });
}

it(`a person's requests spread over two gateways get 429 after ${REQUESTS_PER_MINUTE} in all, not twice as many; the budget refills, and their other token and session share it`, async () => {
  const person = await stack.signUp();
  const created = await stack.api('POST', '/auth/api-tokens', { name: 'two doors', scope: 'read', password: person.password }, person.token);
  expect(created.status).toBe(201);
  const token = created.body.token as string;

  const started = Date.now();
  const statuses: number[] = [];
  for (let i = 0; i < 2 * REQUESTS_PER_MINUTE + 4; i++) statuses.push((await readWith(gateways[i % 2]!, token)).status);
  const seconds = (Date.now() - started) / 1000;
  const served = statuses.filter((s) => s === 200).length;
  // The budget refills one request every 6 s while the loop runs; what signing up read with the session was spent
  // from it before (a few requests).
  expect(served).toBeGreaterThanOrEqual(REQUESTS_PER_MINUTE / 2);
  expect(served).toBeLessThanOrEqual(REQUESTS_PER_MINUTE + Math.ceil(seconds / 6));
  expect(statuses.filter((s) => s !== 200 && s !== 429)).toEqual([]);
  expect(statuses.at(-1)).toBe(429);

  // Both doors refuse now, with the same answer as ever.
  const refusals = await Promise.all(gateways.map((g) => readWith(g, token)));
  for (const refused of refusals) {
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(6);
    const body = (await refused.json()) as { error: { code: string; message: string; details: { retryAfterSeconds: number } } };
    expect(body.error.code).toBe('gateway/rate-limited');
    expect(body.error.message).toBe(`Your account made more than ${REQUESTS_PER_MINUTE} requests in a minute (your API tokens and browser sessions count together). Try again in ${retryAfter} s.`);
  }

  // Waiting as told lets a request through again, at either door.
  const wait = Math.max(...refusals.map((r) => Number(r.headers.get('retry-after'))));
  await new Promise((r) => setTimeout(r, wait * 1000 + 200));
  const afterWait = await readWith(gateways[1]!, token);
  expect(afterWait.status).toBe(200);

  // Another token of the same person draws on the same budget, which that request just spent, and so does the
  // person's browser session, at either door.
  const other = await stack.api('POST', '/auth/api-tokens', { name: 'other', scope: 'read', password: person.password }, person.token);
  expect((await readWith(gateways[0]!, other.body.token as string)).status).toBe(429);
  expect((await readWith(gateways[1]!, person.token)).status).toBe(429);
}, 60_000);
