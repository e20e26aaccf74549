import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig, serviceConfig } from '../src/config/index.js';
import { enqueueEvent } from '../src/bus/outbox.js';
import { onPrepared } from '../src/bus/types.js';
import { createLogger } from '../src/logging/logger.js';
import { startService, type RunningService } from '../src/runtime.js';
import { deleteBrokerObjects, dropSchemas, eventually, startOtlpReceiver, testEnv, testLogger, uniqueName, type OtlpReceiver } from '../src/testing/index.js';
import { userCreated } from './bus-fixtures.js';

const configSchema = serviceConfig({ PORT: z.coerce.number().int().min(0).default(0) });
type Config = z.infer<typeof configSchema>;

const prefix = uniqueName('trace');
const exchange = `${prefix}_exchange`;
const SERVER = 2;
const CONSUMER = 5;

/** Two services: `front` takes a request and writes an event in its transaction; `back` handles the event. */
async function startPair(env: Record<string, string>, logLines?: string[]) {
  const settings = (extra: Record<string, string> = {}) => parseConfig(configSchema, testEnv({ BUS_EXCHANGE: exchange, ...env, ...extra })) as Config;
  const handled: string[] = [];
  const back = await startService({
    name: `${prefix}_back`,
    dbSchema: `${prefix}_back`,
    config: settings(),
    consumes: ['user.created.v1'],
    logger: logLines ? createLogger('back', 'info', new Writable({ write: (chunk: Buffer, _e, done) => (logLines.push(chunk.toString()), done()) })) : testLogger('back'),
    consumers: ({ logger }) => [
      onPrepared(
        'user.created.v1',
        async (event) => {
          logger.info({ uid: event.data.uid }, 'reading the new user');
          return event.data.email;
        },
        async (_event, { prepared }) => void handled.push(prepared),
      ),
    ],
  });
  const front = await startService({
    name: `${prefix}_front`,
    dbSchema: `${prefix}_front`,
    config: settings(),
    logger: testLogger('front'),
    setup: ({ app, db }) => {
      app.post('/users', async (_req, res) => {
        const user = userCreated();
        await db.transaction((trx) => enqueueEvent(trx, 'user.created.v1', user));
        res.status(201).json(user);
      });
    },
  });
  return { front, back, handled };
}

async function stopPair(pair: { front: RunningService<Config>; back: RunningService<Config> } | undefined) {
  await pair?.front.stop();
  await pair?.back.stop();
}

afterAll(async () => {
  await deleteBrokerObjects(exchange, [`${prefix}_back`]);
  await dropSchemas(`${prefix}_`);
});

describe('traces, exported to a collector over OTLP', () => {
  let receiver: OtlpReceiver;
  let pair: Awaited<ReturnType<typeof startPair>> | undefined;
  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    pair = await startPair({ OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url });
  }, 60_000);
  afterAll(async () => {
    await stopPair(pair);
    await receiver?.stop();
  });

  it("follow a caller's request into the event it caused and the other service that handled it: one trace", async () => {
    const callerTrace = '4bf92f3577b34da6a3ce929d0e0e4736';
    const callerSpan = '00f067aa0ba902b7';
    const res = await fetch(`http://127.0.0.1:${pair!.front.port}/users`, { method: 'POST', headers: { traceparent: `00-${callerTrace}-${callerSpan}-01` } });
    expect(res.status).toBe(201);
    const { email } = (await res.json()) as { email: string };
    // The reference a person would quote finds the trace.
    expect(res.headers.get('x-correlation-id')).toBe(callerTrace);
    await eventually(() => pair!.handled.includes(email), 15_000);

    // Spans are sent in batches; the last ones go out when each service stops.
    await stopPair(pair);
    pair = undefined;
    const ofTrace = (name: string) => receiver.spans.find((s) => s.traceId === callerTrace && s.name === name);
    const request = ofTrace('POST /users');
    const handling = ofTrace('process user.created.v1');
    const prepare = ofTrace('prepare');
    const commit = ofTrace('commit');
    expect(request).toMatchObject({ service: `${prefix}_front`, kind: SERVER, parentSpanId: callerSpan });
    expect(request!.attributes).toMatchObject({ 'http.route': '/users', 'http.response.status_code': 201 });
    expect(handling).toMatchObject({ service: `${prefix}_back`, kind: CONSUMER, parentSpanId: request!.spanId });
    expect(handling!.attributes).toMatchObject({ 'messaging.system': 'rabbitmq', 'frametext.outcome': 'handled', 'frametext.attempt': 1 });
    expect(prepare?.parentSpanId).toBe(handling!.spanId);
    expect(commit?.parentSpanId).toBe(handling!.spanId);
  }, 60_000);
});

describe('traces with no collector configured', () => {
  let pair: Awaited<ReturnType<typeof startPair>> | undefined;
  const lines: string[] = [];
  beforeAll(async () => {
    pair = await startPair({ LOG_LEVEL: 'info' }, lines);
  }, 60_000);
  afterAll(() => stopPair(pair));

  it('still give every request a trace id that travels with its events and appears in the handler\'s logs', async () => {
    const res = await fetch(`http://127.0.0.1:${pair!.front.port}/users`, { method: 'POST' });
    expect(res.status).toBe(201);
    const { email, uid } = (await res.json()) as { email: string; uid: string };
    const traceId = res.headers.get('x-correlation-id');
    expect(traceId).toMatch(/^[0-9a-f]{32}$/);
    await eventually(() => pair!.handled.includes(email), 15_000);
    const line = lines.map((l) => JSON.parse(l) as Record<string, unknown>).find((l) => l.uid === uid);
    expect(line).toMatchObject({ traceId, correlationId: traceId });
    expect(line?.spanId).toMatch(/^[0-9a-f]{16}$/);
  }, 30_000);
});
