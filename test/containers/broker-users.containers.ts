// Least privilege in RabbitMQ, in the running stack: the broker made a user per service at start
// (deploy/rabbitmq/broker-users.sh), each service is connected as its own, and the worker that reads untrusted media
// cannot forge another service's events or read its queue. Checked from inside ocr-tesseract's container, with the
// RABBITMQ_URL it was given and the amqplib of its image.
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { SERVICE_REGISTRY } from '@frametext/contracts';
import { containersOf } from './stack.js';

const podman = (args: string[]) => execFileSync('podman', args, { encoding: 'utf8', maxBuffer: 16 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });
const SERVICES = SERVICE_REGISTRY.filter((s) => s.name !== 'gateway').map((s) => s.name);

/** rabbitmqctl in the broker's container: its tab-separated rows. */
function rabbitmqctl(...args: string[]): string[][] {
  const [broker] = containersOf('rabbitmq');
  if (!broker) throw new Error('no running rabbitmq container');
  return podman(['exec', broker.id, 'rabbitmqctl', '-q', '--no-table-headers', ...args])
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => l.split('\t'));
}

/** What the broker answers each attempt, made inside ocr-tesseract's container as the service connects. */
function asOcrWorker(attempts: { publish?: [string, string]; get?: string }[]): string[] {
  const program = `
    import { createRequire } from 'node:module';
    const amqp = createRequire(import.meta.resolve('@frametext/service-kit'))('amqplib');
    const out = [];
    for (const attempt of JSON.parse(process.argv[1])) {
      const connection = await amqp.connect(process.env.RABBITMQ_URL);
      connection.on('error', () => undefined);
      try {
        if (attempt.publish) {
          const channel = await connection.createConfirmChannel();
          const refusal = new Promise((_, reject) => channel.on('error', reject));
          channel.publish(attempt.publish[0], attempt.publish[1], Buffer.from('{}'));
          await channel.waitForConfirms().catch(() => refusal);
        } else {
          await (await connection.createChannel()).get(attempt.get);
        }
        out.push('ok');
      } catch (err) {
        out.push(String(err.message));
      }
      await connection.close().catch(() => undefined);
    }
    console.log(JSON.stringify(out));`;
  const [worker] = containersOf('ocr-tesseract');
  const text = podman(['exec', '-w', '/app', worker!.id, 'node', '--input-type=module', '-e', program, JSON.stringify(attempts)]);
  return JSON.parse(text.trim().split('\n').pop()!) as string[];
}

describe('broker users', () => {
  it('made a user per service at start, without admin tags, and every service is connected as its own', () => {
    const users = rabbitmqctl('list_users');
    expect(users.map(([name]) => name).sort()).toEqual(['frametext', ...SERVICES.map((s) => `frametext-${s}`)].sort());
    for (const [name, tags] of users) expect(tags, name).toBe(name === 'frametext' ? '[administrator]' : '[]');
    const connected = new Set(rabbitmqctl('list_connections', 'user').map(([user]) => user));
    expect([...connected].sort()).toEqual(SERVICES.map((s) => `frametext-${s}`).sort());
  });

  it("keeps ocr-tesseract from forging other services' events and from their queues", () => {
    const [processed, extracted, direct, results] = asOcrWorker([
      { publish: ['frametext.events', 'upload.processed.v1'] },
      { publish: ['frametext.events', 'frames.extracted.v1'] },
      { publish: ['', 'results'] },
      { get: 'results' },
    ]);
    expect(processed).toMatch(/ACCESS_REFUSED - (\w+ )?access to topic 'upload\.processed\.v1'/);
    expect(extracted).toMatch(/ACCESS_REFUSED - (\w+ )?access to topic 'frames\.extracted\.v1'/);
    expect(direct).toMatch(/ACCESS_REFUSED - (\w+ )?access to exchange 'amq\.default'/);
    expect(results).toMatch(/ACCESS_REFUSED - (\w+ )?access to queue 'results'/);
  });
});
