import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVICE_REGISTRY, eventSchemas, type EventType } from '@frametext/contracts';
import { schemaName } from '@frametext/service-kit';
import { SERVICES } from '../scripts/lib/services.mjs';
import { SERVICE_PORTS, UPSTREAM_SERVICES, gatewayConfigSchema } from '../services/gateway/src/config.js';
import { ROUTES } from '../services/gateway/src/routes.js';
import { configSchema as billingConfig } from '../services/billing/src/config.js';
import { billingService } from '../services/billing/src/service.js';
import { configSchema as extractionConfig } from '../services/frame-extraction/src/config.js';
import { frameExtractionService } from '../services/frame-extraction/src/service.js';
import { identityConfigSchema } from '../services/identity/src/config.js';
import { identityService } from '../services/identity/src/service.js';
import { configSchema as cloudConfig } from '../services/ocr-cloud/src/config.js';
import { ocrCloudService } from '../services/ocr-cloud/src/service.js';
import { fixedTokenAccess } from '../services/ocr-cloud/test/support/fake-google.js';
import { configSchema as tesseractConfig } from '../services/ocr-tesseract/src/config.js';
import { ocrTesseractService } from '../services/ocr-tesseract/src/service.js';
import { configSchema as resultsConfig } from '../services/results/src/config.js';
import { resultsService } from '../services/results/src/service.js';
import { configSchema as uploadConfig } from '../services/upload/src/config.js';
import { uploadService } from '../services/upload/src/service.js';

// The service registry (packages/contracts/src/registry.js) against what reads it or repeats it: the service
// folders and their definitions, npm start, the gateway and docs/architecture.md. Compose: deploy.test.ts; Kubernetes: k8s-manifests.test.ts.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const names = SERVICE_REGISTRY.map((s) => s.name);

/** The definitions as each service's main.ts builds them, from its config's defaults (ocr-cloud as it runs with Google credentials). */
const definitions = {
  identity: () => identityService(identityConfigSchema.parse({})),
  'ocr-cloud': () => ocrCloudService(cloudConfig.parse({}), { google: fixedTokenAccess() }),
  upload: () => uploadService(uploadConfig.parse({})),
  'frame-extraction': () => frameExtractionService(extractionConfig.parse({})),
  'ocr-tesseract': () => ocrTesseractService(tesseractConfig.parse({})),
  billing: () => billingService(billingConfig.parse({})),
  results: () => resultsService(resultsConfig.parse({})),
};

/** Every Markdown table row of a file, as trimmed cells. */
function tableRows(markdown: string): string[][] {
  return markdown
    .split('\n')
    .filter((l) => /^\|.*\|$/.test(l.trim()) && !/^\|[\s|:-]+\|$/.test(l.trim()))
    .map((l) =>
      l
        .trim()
        .slice(1, -1)
        .split('|')
        .map((c) => c.trim().replace(/`/g, '')),
    );
}

describe('the service registry', () => {
  it('names each folder under services/ once, with a port of its own, the gateway last', () => {
    const folders = readdirSync(path.join(root, 'services')).filter((d) => existsSync(path.join(root, 'services', d, 'package.json')));
    expect([...names].sort()).toEqual(folders.sort());
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(SERVICE_REGISTRY.map((s) => s.port)).size).toBe(names.length);
    expect(names.at(-1)).toBe('gateway');
  });

  it('lists only events of the contracts', () => {
    for (const s of SERVICE_REGISTRY) for (const e of [...s.consumes, ...s.publishes]) expect(Object.keys(eventSchemas), `${s.name}: ${e}`).toContain(e);
  });

  it("is what npm start runs and the gateway routes to, with each service's default port", () => {
    expect(SERVICES).toEqual(names);
    expect(UPSTREAM_SERVICES).toEqual(names.filter((n) => n !== 'gateway'));
    expect(Object.entries(SERVICE_PORTS)).toEqual(SERVICE_REGISTRY.map((s) => [s.name, s.port]));
    for (const route of ROUTES) expect(UPSTREAM_SERVICES, route.path).toContain(route.target);
    const gateway = gatewayConfigSchema.parse({});
    for (const name of UPSTREAM_SERVICES) {
      const setting = `${name.toUpperCase().replace(/-/g, '_')}_URL`;
      expect((gateway as Record<string, unknown>)[setting], `the gateway's ${setting}`).toBe(`http://127.0.0.1:${SERVICE_PORTS[name]}`);
    }
    expect(gateway.PORT).toBe(SERVICE_PORTS.gateway);
  });

  it.each(Object.entries(definitions))("matches %s's own definition: port, schema and consumed events", (name, define) => {
    const entry = SERVICE_REGISTRY.find((s) => s.name === name)!;
    const def = define();
    expect(def.name).toBe(name);
    expect(def.config.PORT).toBe(entry.port);
    expect(def.dbSchema ?? schemaName(def.name)).toBe(entry.schema);
    expect([...(def.consumes ?? [])].sort()).toEqual([...entry.consumes].sort());
  });

  it("lists every event a service's code publishes, and only those", () => {
    const sourcesOf = (dir: string): string[] =>
      readdirSync(dir, { withFileTypes: true }).flatMap((d) => (d.isDirectory() ? sourcesOf(path.join(dir, d.name)) : d.name.endsWith('.ts') && !d.name.endsWith('.test.ts') ? [path.join(dir, d.name)] : []));
    for (const s of SERVICE_REGISTRY) {
      const code = sourcesOf(path.join(root, 'services', s.name, 'src'))
        .map((f) => readFileSync(f, 'utf8'))
        .join('\n');
      const published = new Set([...code.matchAll(/enqueueEvent\(\s*[\w.]+,\s*'([a-z.0-9-]+)'/g)].map((m) => m[1] as EventType));
      expect([...published].sort(), s.name).toEqual([...s.publishes].sort());
    }
  });
});

describe('docs/architecture.md', () => {
  const rows = tableRows(read('docs/architecture.md')).filter((r) => r.length === 5 && /^\d+$/.test(r[0]!));

  it('shows the pipeline as one table: every consumed event with its publishers, its consumer and the consuming file', () => {
    expect(rows.length).toBeGreaterThan(0);
    const documented = rows.map(([, event, , consumer]) => `${event} -> ${consumer}`).sort();
    const registered = SERVICE_REGISTRY.flatMap((s) => s.consumes.map((e) => `${e} -> ${s.name}`)).sort();
    expect(documented).toEqual(registered);
    for (const [step, event, publishers, consumer, file] of rows) {
      const publishing = SERVICE_REGISTRY.filter((s) => s.publishes.includes(event as EventType)).map((s) => s.name);
      expect(publishers!.split(/,\s*/).sort(), `step ${step} ${event}`).toEqual(publishing.sort());
      expect(file!.startsWith(`services/${consumer}/`), `step ${step}: ${file}`).toBe(true);
      expect(read(file!), `step ${step}: ${file} handles ${event}`).toContain(`'${event}'`);
    }
  });
});

describe('docs/operations.md', () => {
  it('lists every process with its port and schema, as the registry does', () => {
    const rows = tableRows(read('docs/operations.md')).filter((r) => names.includes(r[0] as (typeof names)[number]));
    expect(rows.map((r) => r[0])).toEqual(names);
    for (const [name, port, schema] of rows) {
      const entry = SERVICE_REGISTRY.find((s) => s.name === name)!;
      expect(port, name).toContain(String(entry.port));
      expect(schema, name).toBe(entry.schema ?? 'none');
    }
  });
});
