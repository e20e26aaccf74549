import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_REGISTRY, serviceUrlSetting } from '@frametext/contracts';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as core from 'kubernetes-models/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import { parseConfig } from '@frametext/service-kit';
import { LOCAL_IMAGES, LOCAL_VERSIONS } from '../scripts/lib/local-images.mjs';
import { configSchema as billingConfig, paymentsMode } from '../services/billing/src/config.js';
import { configSchema as frameExtractionConfig } from '../services/frame-extraction/src/config.js';
import { gatewayConfigSchema } from '../services/gateway/src/config.js';
import { identityConfigSchema } from '../services/identity/src/config.js';
import { configSchema as ocrCloudConfig } from '../services/ocr-cloud/src/config.js';
import { configSchema as ocrTesseractConfig } from '../services/ocr-tesseract/src/config.js';
import { configSchema as resultsConfig } from '../services/results/src/config.js';
import { configSchema as uploadConfig } from '../services/upload/src/config.js';

// Offline checks of the container and Kubernetes files against the service registry: what an operator relies on
// when deploying. The images themselves are built and run by `npm run test:containers`.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const APP_SERVICES = SERVICE_REGISTRY.map((s) => s.name);
const PORT = Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, s.port])) as Record<string, number>;
const INFRA = ['postgres', 'rabbitmq', 'object-store'];
const SECRETS = ['POSTGRES_PASSWORD', 'RABBITMQ_PASSWORD', 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'STORAGE_SIGNING_SECRET', 'SERVICE_TOKEN_SECRET', 'JWT_KEY_PASSPHRASE'];
/** registry/name:version with at least major.minor, never `latest`. */
const PINNED = /^([a-z0-9.-]+\/)*[a-z0-9-]+:v?\d+\.\d+(\.\d+)?(-[a-z0-9]+)?$/;

type Doc = Record<string, any>;

const compose = parse(read('docker-compose.yml'), { merge: true }) as Doc;
const services = compose.services as Record<string, Doc>;
const major = (image: string) => /:v?(\d+)/.exec(image)?.[1];

describe('docker-compose.yml', () => {
  const hasCompose = spawnSync('which', ['docker-compose']).status === 0;
  if (!hasCompose) console.warn('deploy.test: docker-compose is not installed; skipping `docker-compose config -q` (the YAML checks below still run)');
  it.skipIf(!hasCompose)('is accepted by docker-compose config, with and without the local override, once the secrets are given', () => {
    const env = { ...process.env, ...Object.fromEntries(SECRETS.map((s) => [s, 'x'.repeat(32)])) };
    // An empty env file, so a developer's own .env plays no part.
    const dir = mkdtempSync(path.join(tmpdir(), 'deploy-test-'));
    writeFileSync(path.join(dir, 'empty.env'), '');
    try {
      for (const files of [['docker-compose.yml'], ['docker-compose.yml', 'docker-compose.local.yml']]) {
        execFileSync('docker-compose', [...files.flatMap((f) => ['-f', f]), '--env-file', path.join(dir, 'empty.env'), 'config', '-q'], { cwd: root, env, stdio: 'pipe', timeout: 20_000 });
      }
      const missing = spawnSync('docker-compose', ['-f', 'docker-compose.yml', '--env-file', path.join(dir, 'empty.env'), 'config', '-q'], { cwd: root, encoding: 'utf8', timeout: 20_000 });
      expect(missing.status, 'compose must refuse to run without the secrets').not.toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('runs every service of the registry, built from the one Dockerfile, plus postgres, rabbitmq and the object store', () => {
    expect(Object.keys(services).sort()).toEqual([...INFRA, ...APP_SERVICES].sort());
    for (const name of APP_SERVICES) {
      expect(services[name]?.build?.dockerfile, name).toBe('deploy/Dockerfile');
      expect(services[name]?.build?.args?.SERVICE, name).toBe(name);
      expect(String(services[name]?.environment?.PORT), name).toBe(String(PORT[name]));
      expect(services[name]?.image, name).toBe(`frametext/${name}:\${TAG:-dev}`);
    }
  });

  it('pulls only pinned, maintained images: no latest, no MinIO, Node 24 LTS for the services', () => {
    for (const name of INFRA) expect(services[name]!.image, name).toMatch(PINNED);
    expect(JSON.stringify(compose)).not.toMatch(/minio\//);
    expect(major(services.postgres!.image)).toBe('17');
    expect(major(services.rabbitmq!.image)).toBe('4');
    expect(services['object-store']!.image).toMatch(/^quay\.io\/ceph\/ceph:v\d+\.\d+\.\d+$/);
    const nodeImage = /\$\{NODE_IMAGE:-([^}]+)\}/.exec(read('docker-compose.yml'))?.[1];
    expect(nodeImage).toBe(/^ARG NODE_IMAGE=(.+)$/m.exec(read('deploy/Dockerfile'))?.[1]);
    expect(nodeImage).toMatch(/^node:24\.\d+\.\d+-[a-z]+-slim$/);
  });

  it('restarts every container and stops the object store gracefully', () => {
    for (const [name, s] of Object.entries(services)) expect(s.restart, name).toBe('unless-stopped');
    expect(services['object-store']!.stop_grace_period).toBeTruthy();
  });

  it('takes every secret from .env with no default, and .env.example names each setting compose reads', () => {
    const text = read('docker-compose.yml');
    for (const secret of SECRETS) {
      expect(text, secret).toContain(`\${${secret}:?`);
      expect(text, secret).not.toMatch(new RegExp(`\\$\\{${secret}:-`));
    }
    const example = read('.env.example');
    for (const [, name] of text.matchAll(/\$\{([A-Z_]+)[:}]/g)) expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
  });

  it('publishes ports for the gateway only, and keeps the rest on the internal network', () => {
    const publishing = Object.entries(services)
      .filter(([, s]) => s.ports)
      .map(([n]) => n);
    expect(publishing).toEqual(['gateway']);
    expect(compose.networks.internal.internal).toBe(true);
    for (const [name, s] of Object.entries(services)) {
      if (name !== 'gateway') expect(s.networks, name).not.toContain('public');
    }
  });

  it('gives every container a health check and starts services only after healthy infrastructure', () => {
    for (const [name, s] of Object.entries(services)) expect(s.healthcheck?.test, name).toBeTruthy();
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) {
      for (const infra of INFRA) expect(services[name]?.depends_on?.[infra]?.condition, `${name} -> ${infra}`).toBe('service_healthy');
      expect(services[name]?.environment?.DATABASE_URL, name).toMatch(/@postgres:5432\//);
      expect(services[name]?.environment?.STORAGE_DRIVER, name).toBe('s3');
      expect(services[name]?.environment?.S3_ENDPOINT, name).toBe('http://object-store:7480');
    }
  });

  it('points the gateway at each service, upload at billing and results at upload, by compose name and registry port', () => {
    const env = services.gateway!.environment as Record<string, string>;
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) expect(env[serviceUrlSetting(name)], name).toBe(`http://${name}:${PORT[name]}`);
    expect(services.upload!.environment.BILLING_URL).toBe(`http://billing:${PORT.billing}`);
    expect(services.results!.environment.UPLOAD_URL).toBe(`http://upload:${PORT.upload}`);
    expect(services.identity!.environment.JWT_KEY_PASSPHRASE).toBeTruthy();
  });
});

describe('docker-compose.local.yml', () => {
  const local = parse(read('docker-compose.local.yml')) as Doc;

  it('changes only the images of the infrastructure, to the locally built ones', () => {
    expect(Object.keys(local)).toEqual(['services']);
    expect(Object.keys(local.services).sort()).toEqual([...INFRA].sort());
    for (const [name, s] of Object.entries(local.services as Record<string, Doc>)) {
      expect(Object.keys(s), name).toEqual(['image']);
      expect(s.image, name).toMatch(/^localhost\/frametext-/);
    }
    expect(local.services.postgres.image).toBe(LOCAL_IMAGES.postgres);
    expect(local.services.rabbitmq.image).toBe(LOCAL_IMAGES.rabbitmq);
    expect(local.services['object-store'].image).toBe(LOCAL_IMAGES.objectStore);
  });

  it('builds the local stand-ins on the same majors as the pinned images', () => {
    expect(/^ARG PG_MAJOR=(\d+)$/m.exec(read('deploy/local/postgres.Containerfile'))?.[1]).toBe(major(services.postgres!.image));
    const nodeImage = /^ARG NODE_IMAGE=node:(\d+)\.(\d+)\.(\d+)-([a-z]+)-slim$/m.exec(read('deploy/Dockerfile'));
    expect(LOCAL_VERSIONS.node).toBe(`${nodeImage?.[1]}.${nodeImage?.[2]}.${nodeImage?.[3]}`);
    expect(LOCAL_VERSIONS.debianSuite).toBe(nodeImage?.[4]);
  });
});

describe('k8s manifests', () => {
  const kustomization = parse(read('k8s/kustomization.yaml')) as Doc;
  const docs: Doc[] = (kustomization.resources as string[]).flatMap((file) =>
    parseAllDocuments(read(`k8s/${file}`)).map((d) => {
      if (d.errors.length > 0) throw new Error(`k8s/${file}: ${d.errors[0]!.message}`);
      return d.toJS() as Doc;
    }),
  );
  const find = (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata?.name === name);
  const kedaDocs = parseAllDocuments(read('k8s/components/keda/scaled-objects.yaml')).map((d) => d.toJS() as Doc);

  // The schemas of Kubernetes' own API groups (kubernetes-models) and KEDA's CRDs, by apiVersion.
  const SCHEMAS: Record<string, Record<string, unknown>> = {
    v1: core,
    'apps/v1': apps,
    'autoscaling/v2': autoscaling,
    'networking.k8s.io/v1': networking,
    'policy/v1': policy,
    'keda.sh/v1alpha1': keda,
  };
  /** What the schema of its kind says is wrong with a manifest, if anything. */
  const schemaProblems = (doc: Doc): string[] => {
    const Model = SCHEMAS[doc.apiVersion]?.[doc.kind] as (new (data: Doc) => { validate(): void }) | undefined;
    const where = `${doc.apiVersion} ${doc.kind} ${doc.metadata?.name}`;
    if (!Model) return [`${where}: no schema for this kind`];
    try {
      new Model(structuredClone(doc)).validate();
      return [];
    } catch (err) {
      return [`${where}: ${(err as Error).message}`];
    }
  };

  it('validates every object of the base and of the KEDA component against the Kubernetes and KEDA schemas', () => {
    expect(docs.length + kedaDocs.length).toBeGreaterThan(60);
    expect([...docs, ...kedaDocs].flatMap(schemaProblems)).toEqual([]);
  });

  it('the schema check finds what kubectl would refuse', () => {
    const deployment = structuredClone(find('Deployment', 'upload')!);
    deployment.spec.template.spec.containers[0].ports[0].containerPort = '8102';
    expect(schemaProblems(deployment).join()).toMatch(/containerPort must be integer/);
    const policy = { ...structuredClone(find('NetworkPolicy', 'default-deny-egress-but-dns')!), spec: { podSelector: {}, policyTypes: ['Egres'] } };
    expect(schemaProblems(policy).join()).toMatch(/policyTypes\/0 must be equal to one of the allowed values/);
    const scaled = structuredClone(kedaDocs.find((d) => d.kind === 'ScaledObject')!);
    scaled.spec.triggers[0].metadata.value = 2;
    expect(schemaProblems(scaled).join()).toMatch(/metadata\/value must be string/);
    expect(schemaProblems({ apiVersion: 'apps/v1', kind: 'Deployent', metadata: { name: 'x' } })).toEqual(['apps/v1 Deployent x: no schema for this kind']);
  });

  it.each(APP_SERVICES)('%s has a Deployment and a Service with probes, limits, non-root and a read-only root', (name) => {
    const deployment = find('Deployment', name);
    const service = find('Service', name);
    expect(deployment, `Deployment ${name}`).toBeDefined();
    expect(service, `Service ${name}`).toBeDefined();
    const pod = deployment!.spec.template.spec;
    const [container] = pod.containers as Doc[];
    expect(container!.image).toBe(`frametext/${name}:dev`);
    expect(container!.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(container!.livenessProbe.httpGet.path).toBe('/health/live');
    expect(container!.ports[0].containerPort).toBe(PORT[name]);
    expect(service!.spec.ports[0].port).toBe(PORT[name]);
    expect((container!.env as Doc[]).find((e) => e.name === 'PORT')?.value).toBe(String(PORT[name]));
    expect(service!.spec.selector).toEqual(deployment!.spec.selector.matchLabels);
    expect(pod.securityContext?.runAsNonRoot ?? container!.securityContext?.runAsNonRoot).toBe(true);
    expect(container!.resources.limits.cpu).toBeTruthy();
    expect(container!.resources.limits.memory).toBeTruthy();
    expect(container!.resources.requests.memory).toBeTruthy();
    expect(container!.securityContext.readOnlyRootFilesystem).toBe(true);
    const tmp = (container!.volumeMounts as Doc[]).find((m) => m.mountPath === '/tmp');
    expect((pod.volumes as Doc[]).find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
  });

  it('has a Deployment and a Service for the registry services only, and points each at its peers by registry port', () => {
    const deployments = docs.filter((d) => d.kind === 'Deployment').map((d) => d.metadata.name);
    expect(deployments.sort()).toEqual([...APP_SERVICES].sort());
    const config = find('ConfigMap', 'frametext-config')!.data as Record<string, string>;
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) expect(config[serviceUrlSetting(name)], name).toBe(`http://${name}:${PORT[name]}`);
    expect(config.S3_ENDPOINT).toBe('http://object-store:7480');
  });

  it('exposes only the gateway through the Ingress, and lets only the gateway reach the services', () => {
    const ingresses = docs.filter((d) => d.kind === 'Ingress');
    const backends = ingresses.flatMap((i) => (i.spec.rules as Doc[]).flatMap((r) => (r.http.paths as Doc[]).map((p) => p.backend.service.name)));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    const policy = find('NetworkPolicy', 'services-from-gateway');
    expect(policy?.spec.podSelector.matchLabels['frametext.io/tier']).toBe('service');
    expect(policy?.spec.ingress[0].from).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }]);
    expect(find('NetworkPolicy', 'default-deny-ingress')?.spec.podSelector).toEqual({});
    expect(find('NetworkPolicy', 'object-store-from-services-and-gateway')?.spec.podSelector.matchLabels['app.kubernetes.io/name']).toBe('object-store');
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) {
      expect(find('Deployment', name)!.spec.template.metadata.labels['frametext.io/tier'], name).toBe('service');
    }
  });

  it.each(APP_SERVICES)('%s can be scraped, starts before liveness counts, has its own account and a disruption budget', (name) => {
    const deployment = find('Deployment', name)!;
    const pod = deployment.spec.template;
    const [container] = pod.spec.containers as Doc[];
    const metrics = (container!.ports as Doc[]).find((p) => p.name === 'metrics');
    expect(metrics?.containerPort).toBe(PORT[name]! + 1000);
    expect(pod.metadata.annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/port': String(PORT[name]! + 1000) });
    expect(container!.startupProbe.httpGet.path).toBe('/health/live');
    expect(container!.startupProbe.periodSeconds * container!.startupProbe.failureThreshold).toBeGreaterThanOrEqual(60);
    expect(pod.spec.serviceAccountName).toBe(name);
    expect(find('ServiceAccount', name)?.automountServiceAccountToken).toBe(false);
    const budget = find('PodDisruptionBudget', name);
    expect(budget?.spec.selector.matchLabels).toEqual(deployment.spec.selector.matchLabels);
    expect(budget?.spec.maxUnavailable).toBe(1);
    // The API services are stateless: two replicas; the workers follow their queue through the autoscaler.
    if (['gateway', 'identity', 'upload', 'billing', 'results'].includes(name)) expect(deployment.spec.replicas, name).toBe(2);
  });

  // Least privilege: which Secrets each pod is given (k8s/config.yaml lists the same).
  const BASE_SECRETS = ['frametext-service-token', 'frametext-database', 'frametext-broker'];
  const STORE_SECRETS = [...BASE_SECRETS, 'frametext-object-store'];
  const POD_SECRETS: Record<string, string[]> = {
    gateway: ['frametext-service-token'],
    identity: [...BASE_SECRETS, 'frametext-identity'],
    upload: STORE_SECRETS,
    'frame-extraction': STORE_SECRETS,
    'ocr-tesseract': STORE_SECRETS,
    'ocr-cloud': [...STORE_SECRETS, 'frametext-ocr-cloud'],
    billing: [...BASE_SECRETS, 'frametext-billing'],
    results: STORE_SECRETS,
    postgres: ['frametext-infrastructure'],
    rabbitmq: ['frametext-infrastructure'],
    'object-store': ['frametext-object-store'],
  };
  const podOf = (name: string) => (find('Deployment', name) ?? find('StatefulSet', name))!.spec.template.spec;
  /** Every Secret a pod reads, by environment or volume, with whether it may be missing. */
  const secretsOf = (name: string) => {
    const pod = podOf(name);
    const refs: { name: string; optional: boolean }[] = [];
    for (const c of pod.containers as Doc[]) {
      for (const from of (c.envFrom ?? []) as Doc[]) if (from.secretRef) refs.push({ name: from.secretRef.name, optional: Boolean(from.secretRef.optional) });
      for (const e of (c.env ?? []) as Doc[]) if (e.valueFrom?.secretKeyRef) refs.push({ name: e.valueFrom.secretKeyRef.name, optional: Boolean(e.valueFrom.secretKeyRef.optional) });
    }
    for (const v of (pod.volumes ?? []) as Doc[]) if (v.secret) refs.push({ name: v.secret.secretName, optional: Boolean(v.secret.optional) });
    return refs;
  };
  const SERVICE_CONFIGS = {
    gateway: gatewayConfigSchema,
    identity: identityConfigSchema,
    upload: uploadConfig,
    'frame-extraction': frameExtractionConfig,
    'ocr-tesseract': ocrTesseractConfig,
    'ocr-cloud': ocrCloudConfig,
    billing: billingConfig,
    results: resultsConfig,
  };

  it.each(Object.keys(POD_SECRETS))('gives %s only the Secrets it uses, each one defined unless optional', (name) => {
    const refs = secretsOf(name);
    expect([...new Set(refs.map((r) => r.name))].sort()).toEqual([...POD_SECRETS[name]!].sort());
    for (const ref of refs.filter((r) => !r.optional)) expect(find('Secret', ref.name), ref.name).toBeDefined();
    // The optional ones are for an overlay to create (Stripe's keys, a Google key file).
    for (const ref of refs.filter((r) => r.optional)) expect(find('Secret', ref.name), ref.name).toBeUndefined();
  });

  /** A service's environment in its pod: the ConfigMap, its port and the Secrets it is given. */
  const podEnv = (name: string) => {
    const env: Record<string, string> = { ...(find('ConfigMap', 'frametext-config')!.data as Record<string, string>), PORT: String(PORT[name]) };
    for (const ref of secretsOf(name)) Object.assign(env, find('Secret', ref.name)?.stringData ?? {});
    const container = podOf(name).containers[0] as Doc;
    for (const e of (container.env ?? []) as Doc[]) if (typeof e.value === 'string') env[e.name] = e.value;
    return env;
  };
  const podConfig = (name: string) => parseConfig(SERVICE_CONFIGS[name as keyof typeof SERVICE_CONFIGS], podEnv(name));

  it.each(APP_SERVICES)("%s starts in production on its pod's environment alone", (name) => {
    const env = podEnv(name);
    expect(env.NODE_ENV).toBe('production');
    expect(() => podConfig(name)).not.toThrow();
    // The pods that store files have the object store's keys; no pod has the fs store's signing secret.
    expect(Boolean(env.S3_SECRET_KEY), name).toBe(['upload', 'frame-extraction', 'ocr-tesseract', 'ocr-cloud', 'results'].includes(name));
    expect(env.STORAGE_SIGNING_SECRET).toBeUndefined();
  });

  it('runs no simulated checkout (free credits for anyone), in compose or in a cluster, unless an operator turns it on', () => {
    expect(paymentsMode(parseConfig(billingConfig, podEnv('billing')))).toBe('off');
    // Compose passes .env's value on, false when .env says nothing.
    expect(services.billing!.environment.SIMULATED_CHECKOUT).toBe('${SIMULATED_CHECKOUT:-false}');
  });

  it('never lets the autoscalers start more database connections than Postgres allows, with or without KEDA', () => {
    const postgres = find('StatefulSet', 'postgres')!.spec.template.spec.containers[0] as Doc;
    const maxConnections = Number(/max_connections=(\d+)/.exec((postgres.args as string[]).join(' '))?.[1]);
    // Postgres keeps 3 for superusers; leave a few more for an operator's psql.
    const available = maxConnections - 3 - 5;
    const scaledObjects = kedaDocs.filter((d) => d.kind === 'ScaledObject');
    const mostReplicas = (name: string, keda: boolean) => {
      const scaled = keda ? scaledObjects.find((d) => d.spec.scaleTargetRef.name === name) : undefined;
      const hpa = docs.find((d) => d.kind === 'HorizontalPodAutoscaler' && d.spec.scaleTargetRef.name === name);
      const most = scaled?.spec.maxReplicaCount ?? hpa?.spec.maxReplicas ?? find('Deployment', name)!.spec.replicas;
      // A rolling update starts up to a quarter more (the default maxSurge) before it stops old pods.
      return most + Math.ceil(most / 4);
    };
    // Each process: its pool, and one connection for the outbox relay's LISTEN (docs/operations.md).
    const perReplica = (name: string) => (secretsOf(name).some((r) => r.name === 'frametext-database') ? podConfig(name).DB_POOL_MAX + 1 : 0);
    const worst = (keda: boolean) => APP_SERVICES.reduce((sum, name) => sum + mostReplicas(name, keda) * perReplica(name), 0);
    expect(perReplica('gateway')).toBe(0);
    expect(perReplica('ocr-tesseract')).toBeLessThanOrEqual(4);
    expect(worst(false)).toBeLessThanOrEqual(available);
    expect(worst(true)).toBeLessThanOrEqual(available);
    expect(worst(true)).toBeGreaterThan(worst(false));
  });

  it('denies egress by default (DNS aside) and opens only the paths the product uses', () => {
    const deny = find('NetworkPolicy', 'default-deny-egress-but-dns')!;
    expect(deny.spec).toMatchObject({ podSelector: {}, policyTypes: ['Egress'] });
    expect((deny.spec.egress as Doc[]).flatMap((r) => r.ports)).toEqual([{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }]);
    const egressOf = (policy: string) => find('NetworkPolicy', policy)!.spec.egress as Doc[];
    const target = (rule: Doc) => rule.to[0].podSelector?.matchLabels['app.kubernetes.io/name'] ?? rule.to[0].podSelector?.matchLabels['frametext.io/tier'];
    const fromServices = egressOf('services-to-infrastructure-and-peers').map((r) => [target(r), r.ports[0].port]);
    expect(fromServices).toEqual([['postgres', 5432], ['rabbitmq', 5672], ['object-store', 7480], ['identity', PORT.identity], ['billing', PORT.billing], ['upload', PORT.upload]]);
    const fromGateway = egressOf('gateway-to-services-and-object-store').map((r) => [target(r), r.ports[0]]);
    const servicePorts = APP_SERVICES.filter((n) => n !== 'gateway').map((n) => PORT[n]!);
    expect(fromGateway).toEqual([['service', { port: Math.min(...servicePorts), endPort: Math.max(...servicePorts) }], ['object-store', { port: 7480 }]]);
    // Only the services that call third-party APIs reach the internet, and no private or link-local address.
    const outside = find('NetworkPolicy', 'third-party-apis')!;
    expect(outside.spec.podSelector.matchExpressions[0].values.sort()).toEqual(['billing', 'identity', 'ocr-cloud']);
    const block = outside.spec.egress[0].to[0].ipBlock;
    expect(block.cidr).toBe('0.0.0.0/0');
    expect(block.except).toEqual(expect.arrayContaining(['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', '169.254.0.0/16']));
    // Every path a service calls is also open at the other end: identity takes the services' JWKS and revocation calls.
    expect(find('NetworkPolicy', 'identity-from-services')!.spec.ingress[0]).toEqual({ from: [{ podSelector: { matchLabels: { 'frametext.io/tier': 'service' } } }], ports: [{ port: PORT.identity }] });
    // upload takes results' calls (the status of an upload completed a moment ago), and no one else's but the gateway's.
    expect(find('NetworkPolicy', 'upload-from-results')!.spec.ingress[0]).toEqual({ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'results' } } }], ports: [{ port: PORT.upload }] });
  });

  it('lets Prometheus, and only it, reach the metrics ports', () => {
    const policy = find('NetworkPolicy', 'metrics-from-prometheus')!;
    expect(policy.spec.podSelector.matchExpressions[0].values.sort()).toEqual([...APP_SERVICES].sort());
    expect(policy.spec.ingress[0].from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
    const allowed = (port: number) => (policy.spec.ingress[0].ports as Doc[]).some((p) => p.port === port || (p.port <= port && port <= (p.endPort ?? p.port)));
    for (const name of APP_SERVICES) expect(allowed(PORT[name]! + 1000), name).toBe(true);
    expect(find('NetworkPolicy', 'gateway-from-anywhere')?.spec.ingress[0].ports).toEqual([{ port: 8080 }]);
  });

  it('autoscales the Tesseract OCR workers', () => {
    const hpa = find('HorizontalPodAutoscaler', 'ocr-tesseract');
    expect(hpa?.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'ocr-tesseract' });
    expect(hpa?.spec.maxReplicas).toBeGreaterThan(hpa?.spec.minReplicas);
  });

  describe('the KEDA component (k8s/overlays/keda)', () => {
    const component = parse(read('k8s/components/keda/kustomization.yaml')) as Doc;
    const scaled = kedaDocs.filter((d) => d.kind === 'ScaledObject');
    const WORKERS = ['ocr-tesseract', 'ocr-cloud', 'frame-extraction'];

    it('scales each worker on its own queue, counting unacked messages too (the management API), ocr-cloud never to zero', () => {
      expect(scaled.map((d) => d.metadata.name).sort()).toEqual([...WORKERS].sort());
      for (const d of scaled) {
        const name = d.metadata.name as string;
        expect(find('Deployment', d.spec.scaleTargetRef.name), name).toBeDefined();
        expect(d.spec.scaleTargetRef.name).toBe(name);
        const [trigger] = d.spec.triggers as Doc[];
        expect(trigger).toMatchObject({ type: 'rabbitmq', metadata: { protocol: 'http', mode: 'QueueLength', queueName: name }, authenticationRef: { name: 'rabbitmq-management' } });
        expect(Number(trigger!.metadata.value)).toBeGreaterThan(0);
        expect(d.spec.maxReplicaCount).toBeGreaterThan(d.spec.minReplicaCount);
      }
      expect(scaled.find((d) => d.metadata.name === 'ocr-cloud')!.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
      expect(scaled.find((d) => d.metadata.name === 'ocr-tesseract')!.spec.minReplicaCount).toBe(0);
    });

    it('authenticates to the management API, which RabbitMQ serves and only KEDA may reach, and replaces the CPU autoscaler', () => {
      const auth = kedaDocs.find((d) => d.kind === 'TriggerAuthentication' && d.metadata.name === 'rabbitmq-management')!;
      const ref = (auth.spec.secretTargetRef as Doc[])[0]!;
      expect(ref.parameter).toBe('host');
      expect(kedaDocs.find((d) => d.kind === 'Secret' && d.metadata.name === ref.name)?.stringData[ref.key]).toMatch(/^http:\/\/.+:15672\/$/);
      const rabbit = find('StatefulSet', 'rabbitmq')!.spec.template.spec;
      expect((rabbit.containers[0].ports as Doc[]).map((p) => p.containerPort)).toContain(15672);
      expect(find('ConfigMap', 'rabbitmq-plugins')?.data.enabled_plugins).toContain('rabbitmq_management');
      expect((find('Service', 'rabbitmq')!.spec.ports as Doc[]).map((p) => p.port)).toContain(15672);
      const fromKeda = kedaDocs.find((d) => d.kind === 'NetworkPolicy')!;
      expect(fromKeda.spec.ingress[0]).toEqual({ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'keda' } } }], ports: [{ port: 15672 }] });
      expect(find('NetworkPolicy', 'database-and-broker-from-services')?.spec.ingress[0].ports).toEqual([{ port: 5432 }, { port: 5672 }]);
      expect(component.kind).toBe('Component');
      expect(component.patches[0].patch).toMatch(/\$patch: delete[\s\S]*kind: HorizontalPodAutoscaler[\s\S]*name: ocr-tesseract/);
      const overlay = parse(read('k8s/overlays/keda/kustomization.yaml')) as Doc;
      expect(overlay).toMatchObject({ resources: ['../..'], components: ['../../components/keda'] });
    });
  });

  it('runs postgres, rabbitmq and the object store as StatefulSets on the images compose pins', () => {
    for (const name of INFRA) {
      const set = find('StatefulSet', name);
      expect(set, name).toBeDefined();
      expect(set!.spec.template.spec.containers[0].image, name).toBe(services[name]!.image);
    }
  });

  it("starts the object store with the compose script (kustomize's copy of it)", () => {
    expect(read('k8s/object-store/ceph-s3.sh')).toBe(read('deploy/object-store/ceph-s3.sh'));
    expect(kustomization.configMapGenerator).toEqual([{ name: 'frametext-object-store', files: ['object-store/ceph-s3.sh'] }]);
  });
});

describe('image recipe', () => {
  const dockerfile = read('deploy/Dockerfile');

  it('pins the pnpm of package.json and runs as a non-root user under tini with a health check', () => {
    const pinned = (JSON.parse(read('package.json')) as { packageManager: string }).packageManager.replace('pnpm@', '');
    expect(dockerfile).toContain(`pnpm@${pinned}`);
    expect(dockerfile).toMatch(/^ARG SERVICE$/m);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*healthcheck\.mjs/m);
    expect(dockerfile).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--"\]$/m);
  });

  it('keeps build settings out of the runtime image and source maps out of the public folder', () => {
    const runtime = dockerfile.slice(dockerfile.indexOf('AS runtime'));
    expect(runtime).not.toMatch(/NODE_EXTRA_CA_CERTS|COREPACK_|npm_config/);
    expect(dockerfile).toContain("find /out/public -name '*.map' -delete");
    expect(read('frontend/vite.config.ts')).toMatch(/sourcemap: false/);
  });

  it('health check answers for the port it is given, and finds a service port in the registry', async () => {
    const server = createServer((req, res) => res.writeHead(req.url === '/health/live' ? 200 : 404).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const exitCode = (env: Record<string, string>) =>
      new Promise<number | null>((resolve) => spawn(process.execPath, [path.join(root, 'deploy/healthcheck.mjs')], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: 'ignore' }).on('exit', resolve));
    try {
      expect(await exitCode({ PORT: String(port) })).toBe(0);
      expect(await exitCode({ SERVICE: 'not-a-service' })).toBe(1);
    } finally {
      server.close();
    }
    expect(dockerfile).toContain('cp deploy/healthcheck.mjs packages/contracts/src/registry.js /out/');
  });
});
