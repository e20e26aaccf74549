// A rollback: the previous image starts on a schema that a newer release has migrated. Every service's schema is
// given a migration this build does not know, as a newer release would leave it, and every service container is
// restarted on it. Each must come back ready and leave that record alone; knex's default, which refuses to start
// on a migration it cannot find ("the migration directory is corrupt"), would crash-loop them instead.
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '@frametext/service-kit/testing';
import { SERVICE_REGISTRY } from '@frametext/contracts';
import { apiClient } from '../support/client.js';
import { BASE_URL, SERVICE_SCHEMAS, containersOf, health, identityMail, jsonLogs, restart, sql, startedAt, type Container } from './stack.js';

const NEWER = '99990101000000_from_a_newer_release';
const client = apiClient(BASE_URL, { mail: identityMail });

/** The services that keep a schema, with their running containers (ocr-tesseract has several). */
const withSchema = () => SERVICE_REGISTRY.filter((s) => s.name !== 'gateway').flatMap((s) => containersOf(s.name).map((c) => ({ service: s.name, container: c })));

/** How many times the container's service has said it is ready, over all its starts. */
const readyLines = (service: string, c: Container) => jsonLogs(c).filter((l) => l.msg === `${service} ready`).length;

afterAll(() => {
  for (const schema of SERVICE_SCHEMAS) sql(`delete from ${schema}.knex_migrations where name = '${NEWER}'`);
});

describe('a rollback to the previous image', () => {
  it('starts every service on a schema migrated by a newer release, and leaves that migration recorded', async () => {
    for (const schema of SERVICE_SCHEMAS) sql(`insert into ${schema}.knex_migrations (name, batch, migration_time) values ('${NEWER}', 9999, now())`);
    const targets = withSchema();
    expect(targets.map((t) => t.service)).toEqual(expect.arrayContaining(['identity', 'upload', 'frame-extraction', 'ocr-tesseract', 'billing', 'results']));
    for (const t of targets) {
      const before = { ready: readyLines(t.service, t.container), started: startedAt(t.container) };
      restart(t.container);
      expect(startedAt(t.container), `${t.container.name} restarted`).not.toBe(before.started);
      await eventually(() => (readyLines(t.service, t.container) > before.ready ? true : undefined), 120_000, 1_000, `${t.container.name} ready after its restart`);
    }
    await eventually(async () => ((await health()).status === 200 ? true : undefined), 120_000, 1_000, 'the gateway reporting every service ready');
    for (const schema of SERVICE_SCHEMAS) expect(sql(`select count(*) from ${schema}.knex_migrations where name = '${NEWER}'`), schema).toEqual([['1']]);

    // The product answers as before: an account is made and reads its credits.
    const { token } = await client.signUp();
    expect(await client.credits(token)).toBeGreaterThanOrEqual(0);
  });
});
