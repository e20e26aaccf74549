import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_REGISTRY } from '@frametext/contracts';
import { METRIC_NAMES } from '@frametext/service-kit';

const dir = path.resolve(import.meta.dirname, '../deploy/monitoring');
const read = (file: string) => readFileSync(path.join(dir, file), 'utf8');
const promtool = (...args: string[]) => execFileSync('promtool', args, { cwd: dir, encoding: 'utf8' });

interface Rule {
  alert: string;
  expr: string;
}
const rules = (parse(read('alerts.yml')) as { groups: { rules: Rule[] }[] }).groups.flatMap((g) => g.rules);
const dashboard = JSON.parse(read('grafana-dashboard.json')) as { panels: { title: string; targets: { expr: string }[] }[] };

/** The metric names a PromQL expression reads: what is left once strings, selectors, ranges, groupings and calls go. */
function metricsIn(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '')
    .replace(/\{[^}]*\}/g, '')
    .replace(/\[[^\]]*\]/g, '')
    .replace(/\b(by|on|without|ignoring)\s*\([^)]*\)/g, '');
  return [...bare.matchAll(/\b([a-z_][a-z0-9_]*)\b(?!\s*\()/g)].map((m) => m[1]!).filter((n) => !['and', 'or', 'unless'].includes(n));
}
const defined = new Set<string>(Object.values(METRIC_NAMES));
/** What RabbitMQ's own endpoint serves for the two families prometheus.yml asks it for (queue_coarse_metrics, queue_consumer_count). */
const BROKER_METRICS = new Set(['rabbitmq_detailed_queue_messages_ready', 'rabbitmq_detailed_queue_messages_unacked', 'rabbitmq_detailed_queue_messages', 'rabbitmq_detailed_queue_consumers']);
const known = (name: string) => name === 'up' || BROKER_METRICS.has(name) || defined.has(name) || defined.has(name.replace(/_(bucket|count|sum)$/, ''));
/** The services' view of their own queues, on their /metrics for whoever reads it; rules and dashboard read the broker's. */
const NOT_CHARTED = new Set<string>([METRIC_NAMES.queueMessages, METRIC_NAMES.queueConsumers]);
const scrapes = (parse(read('prometheus.yml')) as { scrape_configs: { job_name: string; metrics_path?: string; params?: Record<string, string[]>; static_configs: { targets: string[] }[] }[] }).scrape_configs;

describe('deploy/monitoring', () => {
  it('promtool accepts the alert rules and the scrape config', () => {
    expect(promtool('check', 'rules', 'alerts.yml')).toMatch(/SUCCESS: \d+ rules found/);
    expect(promtool('check', 'config', 'prometheus.yml')).toMatch(/is valid prometheus config file/);
  });

  it('alerts on dead letters, outbox lag, a stuck or growing backlog, HTTP errors, stuck uploads and a service down', () => {
    expect(rules.map((r) => r.alert).sort()).toEqual(
      ['FrameTextBacklogGrowing', 'FrameTextBacklogStuck', 'FrameTextDatabasePoolExhausted', 'FrameTextDeadLetters', 'FrameTextHttpErrors', 'FrameTextOutboxLag', 'FrameTextServiceDown', 'FrameTextUploadsStuck'].sort(),
    );
  });

  it('the dashboard and the rules read only metrics the services and the broker export', () => {
    const used = [...rules.map((r) => r.expr), ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr))].flatMap(metricsIn);
    expect(used.length).toBeGreaterThan(15);
    expect(used.filter((n) => !known(n))).toEqual([]);
    // And every FrameText metric is on the dashboard or in a rule.
    for (const name of defined) if (!NOT_CHARTED.has(name)) expect(used.some((u) => u === name || u.startsWith(`${name}_`)), name).toBe(true);
    // Queue depth and consumers come from the broker, so they are there with no consumer running.
    expect(used.filter((n) => NOT_CHARTED.has(n))).toEqual([]);
    expect(used.filter((n) => BROKER_METRICS.has(n)).length).toBeGreaterThan(4);
  });

  // The broker's queue counts, an outbox's backlog and results' uploads in progress are read from one shared place:
  // every replica reports the same number, so adding them up shows N times the truth.
  it('never adds up a gauge that every replica reports alike', () => {
    const shared = [METRIC_NAMES.outboxBacklog, METRIC_NAMES.outboxOldestAge, METRIC_NAMES.uploadsInProgress, METRIC_NAMES.oldestProgressAge];
    const exprs = [...rules.map((r) => r.expr), ...dashboard.panels.flatMap((p) => p.targets.map((t) => t.expr))];
    const summed = exprs.filter((e) => shared.some((name) => new RegExp(`sum\\b[^()]*(\\([^()]*\\))?\\s*\\(\\s*${name}\\b`).test(e)));
    expect(exprs.filter((e) => shared.some((name) => e.includes(name))).length).toBeGreaterThan(5);
    expect(summed).toEqual([]);
  });

  it('scrapes every process on its HTTP port + 1000, and the per-queue families of RabbitMQ\'s own endpoint', () => {
    const targets = (job: string) => scrapes.find((c) => c.job_name === job)?.static_configs.flatMap((s) => s.targets);
    expect(scrapes.map((c) => c.job_name).sort()).toEqual(['frametext', 'rabbitmq']);
    expect(targets('frametext')?.sort()).toEqual(SERVICE_REGISTRY.map((s) => `${s.name}:${s.port + 1000}`).sort());
    expect(targets('rabbitmq')).toEqual(['rabbitmq:15692']);
    const broker = scrapes.find((c) => c.job_name === 'rabbitmq')!;
    expect(broker.metrics_path).toBe('/metrics/detailed');
    expect(broker.params?.family?.sort()).toEqual(['queue_coarse_metrics', 'queue_consumer_count']);
  });
});
