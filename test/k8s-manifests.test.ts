import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_REGISTRY, serviceUrlSetting } from '@frametext/contracts';
import * as keda from '@kubernetes-models/keda/keda.sh/v1alpha1';
import * as core from 'kubernetes-models/v1';
import * as apps from 'kubernetes-models/apps/v1';
import * as autoscaling from 'kubernetes-models/autoscaling/v2';
import * as batch from 'kubernetes-models/batch/v1';
import * as networking from 'kubernetes-models/networking.k8s.io/v1';
import * as policy from 'kubernetes-models/policy/v1';
import { parseConfig } from '@frametext/service-kit';
import { configSchema as billingConfig, paymentsMode } from '../services/billing/src/config.js';
import { configSchema as frameExtractionConfig } from '../services/frame-extraction/src/config.js';
import { gatewayConfigSchema } from '../services/gateway/src/config.js';
import { identityConfigSchema } from '../services/identity/src/config.js';
import { configSchema as ocrCloudConfig } from '../services/ocr-cloud/src/config.js';
import { retryWait } from '../services/ocr-cloud/src/domain/errors.js';
import { FRAMES_IN_HAND_PER_LANE, configSchema as ocrTesseractConfig } from '../services/ocr-tesseract/src/config.js';
import { configSchema as resultsConfig } from '../services/results/src/config.js';
import { configSchema as uploadConfig } from '../services/upload/src/config.js';
import { localWebhookHosts } from '../scripts/lib/services.mjs';

// The Kubernetes manifests as kubectl would apply them: k8s/base and every overlay rendered by `kubectl kustomize`,
// each object checked against the Kubernetes and KEDA schemas, then against the code (service registry, settings).
// Nothing here was applied to a cluster.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const APP_SERVICES = SERVICE_REGISTRY.map((s) => s.name);
const PORT = Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, s.port])) as Record<string, number>;
const OCR_WORKERS = ['ocr-tesseract', 'ocr-cloud'];
const compose = parse(read('docker-compose.yml'), { merge: true }) as Doc;
const byNumber = (a: number, b: number) => a - b;

type Doc = Record<string, any>;

const render = (dir: string): Doc[] =>
  parseAllDocuments(execFileSync('kubectl', ['kustomize', path.join(root, dir)], { encoding: 'utf8' })).map((d) => {
    if (d.errors.length > 0) throw new Error(`${dir}: ${d.errors[0]!.message}`);
    return d.toJS() as Doc;
  });
const OVERLAYS = readdirSync(path.join(root, 'k8s/overlays')).sort();
/** Every way to deploy: the base and each overlay, rendered. */
const RENDERED: Record<string, Doc[]> = Object.fromEntries(['k8s/base', ...OVERLAYS.map((o) => `k8s/overlays/${o}`)].map((dir) => [dir, render(dir)]));
const base = RENDERED['k8s/base']!;
const finder = (docs: Doc[]) => (kind: string, name: string) => docs.find((d) => d.kind === kind && d.metadata?.name === name);
const find = finder(base);

// The schemas of Kubernetes' own API groups (kubernetes-models) and KEDA's CRDs, by apiVersion.
const SCHEMAS: Record<string, Record<string, unknown>> = {
  v1: core,
  'apps/v1': apps,
  'autoscaling/v2': autoscaling,
  'batch/v1': batch,
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

// Least privilege: which Secrets each pod is given (k8s/base/config.yaml lists the same). Each service has a database
// Secret of its own: its DATABASE_URL, with its own Postgres role and password.
const dbSecret = (name: string) => `frametext-database-${name}`;
const brokerSecret = (name: string) => `frametext-broker-${name}`;
const baseSecrets = (name: string) => ['frametext-service-token', dbSecret(name), brokerSecret(name)];
const storeSecrets = (name: string) => [...baseSecrets(name), 'frametext-object-store'];
const POD_SECRETS: Record<string, string[]> = {
  gateway: ['frametext-service-token'],
  identity: [...baseSecrets('identity'), 'frametext-identity'],
  upload: storeSecrets('upload'),
  'frame-extraction': storeSecrets('frame-extraction'),
  'ocr-tesseract': storeSecrets('ocr-tesseract'),
  'ocr-cloud': [...storeSecrets('ocr-cloud'), 'frametext-ocr-cloud'],
  billing: [...baseSecrets('billing'), 'frametext-billing'],
  results: storeSecrets('results'),
  postgres: ['frametext-infrastructure'],
  // Its init container writes each service's broker user from that service's URL.
  rabbitmq: ['frametext-infrastructure', ...APP_SERVICES.filter((n) => n !== 'gateway').map(brokerSecret)],
  'object-store': ['frametext-object-store'],
};
/** The services with a Postgres schema (packages/service-kit's schemaName), each owned by the role frametext_<schema>. */
const SCHEMA_OF = Object.fromEntries(APP_SERVICES.filter((n) => n !== 'gateway').map((n) => [n, n.replace(/-/g, '_')])) as Record<string, string>;
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

/** A pod's spec, its service's settings as the pod gives them, and the Secrets it reads, in one rendering. */
const podsOf = (docs: Doc[]) => {
  const findIn = finder(docs);
  const podOf = (name: string) => (findIn('Deployment', name) ?? findIn('StatefulSet', name))!.spec.template.spec;
  /** Every Secret a pod reads, by environment or volume, with whether it may be missing. */
  const secretsOf = (name: string) => {
    const pod = podOf(name);
    const refs: { name: string; optional: boolean }[] = [];
    for (const c of [...(pod.initContainers ?? []), ...pod.containers] as Doc[]) {
      for (const from of (c.envFrom ?? []) as Doc[]) if (from.secretRef) refs.push({ name: from.secretRef.name, optional: Boolean(from.secretRef.optional) });
      for (const e of (c.env ?? []) as Doc[]) if (e.valueFrom?.secretKeyRef) refs.push({ name: e.valueFrom.secretKeyRef.name, optional: Boolean(e.valueFrom.secretKeyRef.optional) });
    }
    for (const v of (pod.volumes ?? []) as Doc[]) if (v.secret) refs.push({ name: v.secret.secretName, optional: Boolean(v.secret.optional) });
    return refs;
  };
  /** A service's environment in its pod: the ConfigMap, its port, the Secrets it is given, its own variables. */
  const podEnv = (name: string) => {
    const env: Record<string, string> = { ...(findIn('ConfigMap', 'frametext-config')!.data as Record<string, string>), PORT: String(PORT[name]) };
    for (const ref of secretsOf(name)) Object.assign(env, findIn('Secret', ref.name)?.stringData ?? {});
    for (const e of (podOf(name).containers[0].env ?? []) as Doc[]) if (typeof e.value === 'string') env[e.name] = e.value;
    return env;
  };
  const podConfig = (name: string): Doc => parseConfig(SERVICE_CONFIGS[name as keyof typeof SERVICE_CONFIGS], podEnv(name));
  return { podOf, secretsOf, podEnv, podConfig };
};
const { podOf, secretsOf, podEnv, podConfig } = podsOf(base);

/** The Deployments an autoscaler (a HorizontalPodAutoscaler or a KEDA ScaledObject) sets the replicas of. */
const autoscaled = (docs: Doc[]) =>
  new Set(docs.filter((d) => d.kind === 'HorizontalPodAutoscaler' || d.kind === 'ScaledObject').map((d) => d.spec.scaleTargetRef.name as string));

/** What one service finishes after SIGTERM before it stops: the longest work it may hold, from its own settings. */
const LONGEST_STAGE_MS: Record<string, (c: Doc) => number> = {
  // One ffmpeg or ffprobe run of an upload in hand.
  'frame-extraction': (c) => c.FFMPEG_TIMEOUT_MS,
  // A lane's frames in hand, one after another, each at most its CPU budget (or a read timed out, then read again).
  'ocr-tesseract': (c) => Math.max(FRAMES_IN_HAND_PER_LANE * c.OCR_FRAME_CPU_BUDGET_MS, 2 * c.OCR_TIMEOUT_MS),
  // A Vision request, then a Translation one, each with every retry and the longest waits between them.
  'ocr-cloud': (c) => {
    const policy = { retries: c.CLOUD_RETRIES, baseMs: c.CLOUD_RETRY_BASE_MS, random: () => 1 };
    const waits = Array.from({ length: c.CLOUD_RETRIES }, (_, n) => retryWait(policy, n)).reduce((a, b) => a + b, 0);
    return 2 * ((c.CLOUD_RETRIES + 1) * c.CLOUD_TIMEOUT_MS + waits);
  },
  upload: (c) => c.BILLING_TIMEOUT_MS,
  results: (c) => Math.max(c.WEBHOOK_TIMEOUT_MS, c.UPLOAD_TIMEOUT_MS),
};

/** An image's tag; none means Docker's `latest`. */
const tagOf = (image: string) => {
  const name = image.split('@')[0]!;
  const colon = name.lastIndexOf(':');
  return colon > name.lastIndexOf('/') ? name.slice(colon + 1) : 'latest';
};
/** A RabbitMQ information unit (rabbitmq.conf) or a Kubernetes quantity, in bytes. */
const bytes = (value: string) => {
  const m = /^(\d+)\s*([A-Za-z]*)$/.exec(value.trim());
  const units: Record<string, number> = { '': 1, k: 1024, kiB: 1024, Ki: 1024, M: 1024 ** 2, MiB: 1024 ** 2, Mi: 1024 ** 2, G: 1024 ** 3, GiB: 1024 ** 3, Gi: 1024 ** 3, kB: 1e3, MB: 1e6, GB: 1e9 };
  if (!m || units[m[2]!] === undefined) throw new Error(`not a size: ${value}`);
  return Number(m[1]) * units[m[2]!]!;
};

describe.each(Object.keys(RENDERED))('%s', (dir) => {
  const docs = RENDERED[dir]!;
  const findIn = finder(docs);
  const pods = podsOf(docs);
  const deployments = docs.filter((d) => d.kind === 'Deployment');

  it('renders objects that the Kubernetes and KEDA schemas accept, all in the namespace frametext', () => {
    expect(docs.length).toBeGreaterThan(60);
    expect(docs.flatMap(schemaProblems)).toEqual([]);
    for (const d of docs.filter((d) => d.kind !== 'Namespace')) expect(d.metadata.namespace, `${d.kind} ${d.metadata.name}`).toBe('frametext');
  });

  // A `replicas` beside an autoscaler scales the Deployment back to that number at every `kubectl apply`.
  it('sets no replicas on a Deployment an autoscaler scales', () => {
    const scaled = autoscaled(docs);
    expect(scaled.has('ocr-tesseract')).toBe(true);
    for (const d of deployments.filter((d) => scaled.has(d.metadata.name))) expect(d.spec.replicas, d.metadata.name).toBeUndefined();
  });

  // Guaranteed QoS: the Tesseract worker runs one lane per core of its CPU quota and must get every one.
  it.each(OCR_WORKERS)('gives %s requests equal to its limits', (name) => {
    const { resources } = findIn('Deployment', name)!.spec.template.spec.containers[0];
    expect(resources.limits.cpu).toBeTruthy();
    expect(resources.limits.memory).toBeTruthy();
    expect(resources.requests).toEqual(resources.limits);
  });

  // A pod stopped mid-work hands its messages back, and each such stop counts towards BUS_MAX_INTERRUPTIONS: so the
  // service's own shutdown waits out its longest stage, and Kubernetes waits out the service (plus 10 s to exit).
  it.each(APP_SERVICES)('lets %s finish its longest stage before it is killed', (name) => {
    const config = pods.podConfig(name);
    const grace = pods.podOf(name).terminationGracePeriodSeconds as number;
    expect(config.SHUTDOWN_TIMEOUT_MS).toBeGreaterThanOrEqual(LONGEST_STAGE_MS[name]?.(config) ?? 0);
    expect(grace * 1000, 'terminationGracePeriodSeconds').toBeGreaterThanOrEqual(config.SHUTDOWN_TIMEOUT_MS + 10_000);
  });

  it('gives every KEDA ScaledObject a fallback, so a scaler that cannot read its queue leaves workers running', () => {
    for (const d of docs.filter((d) => d.kind === 'ScaledObject')) {
      expect(d.spec.fallback?.failureThreshold, d.metadata.name).toBeGreaterThan(0);
      expect(d.spec.fallback?.replicas, d.metadata.name).toBeGreaterThan(0);
      expect(d.spec.fallback.replicas, d.metadata.name).toBeLessThanOrEqual(d.spec.maxReplicaCount);
    }
  });

  // A worker KEDA runs from zero has no replica most of the time: /api/health must not call that a fault.
  it('names to the gateway the workers that scale to zero, and only those', () => {
    const fromZero = docs.filter((d) => d.kind === 'ScaledObject' && d.spec.minReplicaCount === 0).map((d) => d.spec.scaleTargetRef.name as string);
    expect([...pods.podConfig('gateway').HEALTH_ON_DEMAND].sort()).toEqual(fromZero.sort());
  });

  // frame-extraction copies each source video to its scratch volume for ffmpeg, BUS_PREFETCH of them at once.
  it('gives frame-extraction scratch space for as many of the largest uploads as it takes at once', () => {
    const config = pods.podConfig('frame-extraction');
    const largest = pods.podConfig('gateway').STORAGE_BODY_LIMIT_BYTES as number;
    const tmp = (pods.podOf('frame-extraction').volumes as Doc[]).find((v) => v.name === 'tmp')!;
    expect(bytes(tmp.emptyDir.sizeLimit)).toBeGreaterThanOrEqual(config.BUS_PREFETCH * largest + config.SCRATCH_RESERVE_BYTES);
  });

  // Some network plugins ignore endPort and open a range's first port only.
  it('lists NetworkPolicy ports one by one, never as a range', () => {
    const policies = docs.filter((d) => d.kind === 'NetworkPolicy');
    const ports = policies.flatMap((p) => [...(p.spec.ingress ?? []), ...(p.spec.egress ?? [])].flatMap((r: Doc) => (r.ports ?? []) as Doc[]));
    expect(ports.length).toBeGreaterThan(10);
    expect(ports.filter((p) => 'endPort' in p)).toEqual([]);
  });

  // RabbitMQ cannot always see its container's limit: a relative watermark would let it be killed before it throttles.
  it('gives RabbitMQ an absolute memory watermark well below its container limit', () => {
    const pod = pods.podOf('rabbitmq');
    const container = pod.containers[0] as Doc;
    const mount = (container.volumeMounts as Doc[]).find((m) => /^\/etc\/rabbitmq\/conf\.d\/[^/]+\.conf$/.test(m.mountPath))!;
    const volume = (pod.volumes as Doc[]).find((v) => v.name === mount?.name);
    const conf = findIn('ConfigMap', volume?.configMap.name)?.data[mount.subPath] as string;
    const watermark = /^vm_memory_high_watermark\.absolute\s*=\s*(\S+)\s*$/m.exec(conf ?? '')?.[1];
    expect(watermark, 'vm_memory_high_watermark.absolute').toBeDefined();
    expect(bytes(watermark!)).toBeLessThanOrEqual(0.6 * bytes(container.resources.limits.memory));
    // The same file compose mounts, so the two brokers throttle alike.
    expect(conf).toBe(read('deploy/rabbitmq/90-frametext.conf'));
  });

  it("runs no image on a moving tag (:dev, :latest or none), and FrameText's on the services' version", () => {
    const containers = docs.flatMap((d) => (d.spec?.template?.spec?.containers ?? []) as Doc[]);
    expect(containers.length).toBeGreaterThanOrEqual(APP_SERVICES.length + 3);
    for (const { image } of containers) expect(['dev', 'latest'], image).not.toContain(tagOf(image));
    for (const name of APP_SERVICES) {
      const { version } = JSON.parse(read(`services/${name}/package.json`)) as { version: string };
      expect(findIn('Deployment', name)!.spec.template.spec.containers[0].image).toBe(`frametext/${name}:${version}`);
    }
  });

  it('never lets the autoscalers start more database connections than Postgres allows', () => {
    const postgres = findIn('StatefulSet', 'postgres')!.spec.template.spec.containers[0] as Doc;
    const maxConnections = Number(/max_connections=(\d+)/.exec((postgres.args as string[]).join(' '))?.[1]);
    // Postgres keeps 3 for superusers; leave a few more for an operator's psql.
    const available = maxConnections - 3 - 5;
    const mostReplicas = (name: string) => {
      const scaled = docs.find((d) => d.kind === 'ScaledObject' && d.spec.scaleTargetRef.name === name);
      const hpa = docs.find((d) => d.kind === 'HorizontalPodAutoscaler' && d.spec.scaleTargetRef.name === name);
      const most = scaled?.spec.maxReplicaCount ?? hpa?.spec.maxReplicas ?? findIn('Deployment', name)!.spec.replicas ?? 1;
      // A rolling update starts up to a quarter more (the default maxSurge) before it stops old pods.
      return most + Math.ceil(most / 4);
    };
    // Each process: its pool, and one connection that holds the migration lock at start (docs/operations.md).
    const perReplica = (name: string) => (pods.secretsOf(name).some((r) => r.name === dbSecret(name)) ? pods.podConfig(name).DB_POOL_MAX + 1 : 0);
    expect(perReplica('gateway')).toBe(0);
    expect(perReplica('ocr-tesseract')).toBeLessThanOrEqual(4);
    expect(APP_SERVICES.reduce((sum, name) => sum + mostReplicas(name) * perReplica(name), 0)).toBeLessThanOrEqual(available);
  });
});

describe('the layout', () => {
  it('has a base and a KEDA overlay, each overlay built on the base', () => {
    expect(OVERLAYS).toEqual(expect.arrayContaining(['keda', 'keda-ocr-cloud']));
    for (const overlay of OVERLAYS) expect((parse(read(`k8s/overlays/${overlay}/kustomization.yaml`)) as Doc).resources, overlay).toContain('../../base');
  });

  it('the schema check finds what kubectl would refuse', () => {
    const deployment = structuredClone(find('Deployment', 'upload')!);
    deployment.spec.template.spec.containers[0].ports[0].containerPort = '8102';
    expect(schemaProblems(deployment).join()).toMatch(/containerPort must be integer/);
    const deny = { ...structuredClone(find('NetworkPolicy', 'default-deny-egress-but-dns')!), spec: { podSelector: {}, policyTypes: ['Egres'] } };
    expect(schemaProblems(deny).join()).toMatch(/policyTypes\/0 must be equal to one of the allowed values/);
    const scaled = structuredClone(RENDERED['k8s/overlays/keda']!.find((d) => d.kind === 'ScaledObject')!);
    scaled.spec.triggers[0].metadata.value = 2;
    expect(schemaProblems(scaled).join()).toMatch(/metadata\/value must be string/);
    expect(schemaProblems({ apiVersion: 'apps/v1', kind: 'Deployent', metadata: { name: 'x' } })).toEqual(['apps/v1 Deployent x: no schema for this kind']);
  });

  it('reads image tags and sizes as Kubernetes and RabbitMQ do', () => {
    expect(['frametext/upload', 'frametext/upload:dev', 'localhost:5000/frametext/upload', 'rabbitmq:4.2.0'].map(tagOf)).toEqual(['latest', 'dev', 'latest', '4.2.0']);
    expect([bytes('512MiB'), bytes('1Gi'), bytes('2GB'), bytes('1048576')]).toEqual([512 * 1024 ** 2, 1024 ** 3, 2e9, 1024 ** 2]);
  });
});

describe('the base (k8s/base)', () => {
  it.each(APP_SERVICES)('%s has a Deployment and a Service with probes, limits, non-root and a read-only root', (name) => {
    const deployment = find('Deployment', name);
    const service = find('Service', name);
    expect(deployment, `Deployment ${name}`).toBeDefined();
    expect(service, `Service ${name}`).toBeDefined();
    const pod = deployment!.spec.template.spec;
    const [container] = pod.containers as Doc[];
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
    const deployments = base.filter((d) => d.kind === 'Deployment').map((d) => d.metadata.name);
    expect(deployments.sort()).toEqual([...APP_SERVICES].sort());
    const config = find('ConfigMap', 'frametext-config')!.data as Record<string, string>;
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) expect(config[serviceUrlSetting(name)], name).toBe(`http://${name}:${PORT[name]}`);
    expect(config.S3_ENDPOINT).toBe('http://object-store:7480');
  });

  it('exposes only the gateway through the Ingress, and lets only the gateway reach the services', () => {
    const ingresses = base.filter((d) => d.kind === 'Ingress');
    const backends = ingresses.flatMap((i) => (i.spec.rules as Doc[]).flatMap((r) => (r.http.paths as Doc[]).map((p) => p.backend.service.name)));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    const fromGateway = find('NetworkPolicy', 'services-from-gateway');
    expect(fromGateway?.spec.podSelector.matchLabels['frametext.io/tier']).toBe('service');
    expect(fromGateway?.spec.ingress[0].from).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }]);
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

  it.each(Object.keys(POD_SECRETS))('gives %s only the Secrets it uses, each one defined unless optional', (name) => {
    const refs = secretsOf(name);
    expect([...new Set(refs.map((r) => r.name))].sort()).toEqual([...POD_SECRETS[name]!].sort());
    for (const ref of refs.filter((r) => !r.optional)) expect(find('Secret', ref.name), ref.name).toBeDefined();
    // The optional ones are for an overlay to create (Stripe's keys, a Google key file).
    for (const ref of refs.filter((r) => r.optional)) expect(find('Secret', ref.name), ref.name).toBeUndefined();
  });

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
    expect(compose.services.billing.environment.SIMULATED_CHECKOUT).toBe('${SIMULATED_CHECKOUT:-false}');
  });

  it('lets webhooks reach this machine on a local install (npm start) only, never in compose or a cluster', () => {
    expect(parseConfig(resultsConfig, podEnv('results')).WEBHOOK_LOCAL_HOSTS).toEqual([]);
    expect(compose.services.results.environment.WEBHOOK_LOCAL_HOSTS).toBeUndefined();
    expect(parseConfig(resultsConfig, { ...podEnv('results'), ...localWebhookHosts({}) }).WEBHOOK_LOCAL_HOSTS).toEqual(['localhost', '127.0.0.1', '::1']);
    // An operator's own setting, even empty, wins.
    expect(localWebhookHosts({ WEBHOOK_LOCAL_HOSTS: '' })).toEqual({});
  });

  it('denies egress by default (DNS aside) and opens only the paths the product uses', () => {
    const deny = find('NetworkPolicy', 'default-deny-egress-but-dns')!;
    expect(deny.spec).toMatchObject({ podSelector: {}, policyTypes: ['Egress'] });
    expect((deny.spec.egress as Doc[]).flatMap((r) => r.ports)).toEqual([{ port: 53, protocol: 'UDP' }, { port: 53, protocol: 'TCP' }]);
    const egressOf = (name: string) => find('NetworkPolicy', name)!.spec.egress as Doc[];
    const target = (rule: Doc) => rule.to[0].podSelector?.matchLabels['app.kubernetes.io/name'] ?? rule.to[0].podSelector?.matchLabels['frametext.io/tier'];
    const fromServices = egressOf('services-to-infrastructure-and-peers').map((r) => [target(r), r.ports.map((p: Doc) => p.port)]);
    expect(fromServices).toEqual([['postgres', [5432]], ['rabbitmq', [5672]], ['object-store', [7480]], ['identity', [PORT.identity]], ['billing', [PORT.billing]], ['upload', [PORT.upload]]]);
    const fromGateway = egressOf('gateway-to-services-and-object-store').map((r) => [target(r), r.ports.map((p: Doc) => p.port)]);
    const servicePorts = APP_SERVICES.filter((n) => n !== 'gateway').map((n) => PORT[n]!);
    expect(fromGateway).toEqual([['service', servicePorts.sort(byNumber)], ['object-store', [7480]]]);
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
    const metrics = find('NetworkPolicy', 'metrics-from-prometheus')!;
    expect(metrics.spec.podSelector.matchExpressions[0].values.sort()).toEqual([...APP_SERVICES].sort());
    expect(metrics.spec.ingress[0].from).toEqual([{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }]);
    const ports = (metrics.spec.ingress[0].ports as Doc[]).map((p) => p.port as number).sort(byNumber);
    expect(ports).toEqual(APP_SERVICES.map((name) => PORT[name]! + 1000).sort(byNumber));
    expect(find('NetworkPolicy', 'gateway-from-anywhere')?.spec.ingress[0].ports).toEqual([{ port: 8080 }]);
  });

  // The backlog alerts read the broker's own queue counts: they must not depend on a consumer being alive.
  it('serves RabbitMQ\'s own queue metrics on 15692, to Prometheus only', () => {
    expect(find('ConfigMap', 'rabbitmq-config')?.data.enabled_plugins).toContain('rabbitmq_prometheus');
    expect((podOf('rabbitmq').containers[0].ports as Doc[]).find((p) => p.containerPort === 15692)?.name).toBe('prometheus');
    expect((find('Service', 'rabbitmq')!.spec.ports as Doc[]).map((p) => p.port)).toContain(15692);
    const policy = find('NetworkPolicy', 'broker-metrics-from-prometheus')!;
    expect(policy.spec.podSelector).toEqual({ matchLabels: { 'app.kubernetes.io/name': 'rabbitmq' } });
    expect(policy.spec.ingress).toEqual([{ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'monitoring' } } }], ports: [{ port: 15692 }] }]);
  });

  it('autoscales the Tesseract OCR workers on CPU', () => {
    const hpa = find('HorizontalPodAutoscaler', 'ocr-tesseract');
    expect(hpa?.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'ocr-tesseract' });
    expect(hpa?.spec.maxReplicas).toBeGreaterThan(hpa?.spec.minReplicas);
  });

  it('runs postgres, rabbitmq and the object store as StatefulSets on the images compose pins', () => {
    for (const name of ['postgres', 'rabbitmq', 'object-store']) {
      const set = find('StatefulSet', name);
      expect(set, name).toBeDefined();
      expect(set!.spec.template.spec.containers[0].image, name).toBe(compose.services[name].image);
    }
  });

  // Least privilege in Postgres: the admin password (frametext-infrastructure) reaches the postgres pod and the Job
  // that makes the services' roles, never a service.
  it('gives no service the Postgres admin credentials, and each service a database URL with its own role', () => {
    const adminPassword = find('Secret', 'frametext-infrastructure')!.stringData.POSTGRES_PASSWORD as string;
    const passwords = new Set<string>();
    for (const name of APP_SERVICES) {
      expect(secretsOf(name).map((r) => r.name), name).not.toContain('frametext-infrastructure');
      const env = podEnv(name);
      expect(Object.entries(env).filter(([, v]) => v.includes(adminPassword)), name).toEqual([]);
      expect(env.POSTGRES_PASSWORD, name).toBeUndefined();
      const databaseSecrets = secretsOf(name).filter((r) => r.name.startsWith('frametext-database'));
      if (name === 'gateway') {
        expect(databaseSecrets, name).toEqual([]);
        expect(env.DATABASE_URL, name).toBeUndefined();
        continue;
      }
      expect(databaseSecrets.map((r) => r.name), name).toEqual([dbSecret(name)]);
      const url = new URL(env.DATABASE_URL!);
      expect(url.username, name).toBe(`frametext_${SCHEMA_OF[name]}`);
      expect(url.username, name).not.toBe('frametext');
      expect(`${url.host}${url.pathname}`, name).toBe('postgres:5432/frametext');
      passwords.add(url.password);
    }
    expect(passwords.size, 'a password per service').toBe(Object.keys(SCHEMA_OF).length);
  });

  // Least privilege in RabbitMQ: the admin password reaches the broker alone; each service logs in as its own user,
  // which the broker's init container writes from the service's URL before the broker starts.
  it('gives each service a broker user of its own, written before the broker starts from its Secret', () => {
    const adminPassword = find('Secret', 'frametext-infrastructure')!.stringData.RABBITMQ_DEFAULT_PASS as string;
    const users = new Set<string>();
    for (const name of APP_SERVICES) {
      const env = podEnv(name);
      expect(Object.entries(env).filter(([, v]) => v.includes(adminPassword)), name).toEqual([]);
      if (name === 'gateway') {
        expect(env.RABBITMQ_URL, name).toBeUndefined();
        continue;
      }
      expect(secretsOf(name).filter((r) => r.name.startsWith('frametext-broker')).map((r) => r.name), name).toEqual([brokerSecret(name)]);
      const url = new URL(env.RABBITMQ_URL!);
      expect(url.username, name).toBe(`frametext-${name}`);
      expect(url.host, name).toBe('rabbitmq:5672');
      users.add(`${url.username}:${url.password}`);
    }
    expect(users.size).toBe(Object.keys(SCHEMA_OF).length);
    const pod = podOf('rabbitmq');
    const [init] = pod.initContainers as Doc[];
    expect(init!.image).toBe(pod.containers[0].image);
    expect(init!.command).toEqual(['/bin/bash', '/opt/frametext/broker-users.sh']);
    const env = Object.fromEntries((init!.env as Doc[]).map((e) => [e.name, e.value ?? e.valueFrom.secretKeyRef]));
    expect(env.RABBITMQ_DEFAULT_PASS).toEqual({ name: 'frametext-infrastructure', key: 'RABBITMQ_DEFAULT_PASS' });
    for (const name of Object.keys(SCHEMA_OF)) expect(env[`RABBITMQ_URL_${name.replace(/-/g, '_').toUpperCase()}`], name).toEqual({ name: brokerSecret(name), key: 'RABBITMQ_URL' });
    const script = base.find((d) => d.kind === 'ConfigMap' && d.metadata.name.startsWith('frametext-broker-users-'));
    expect(script?.data['broker-users.sh']).toBe(read('deploy/rabbitmq/broker-users.sh'));
    // The written users (passwords) stay in memory, shared by the two containers only.
    const definitions = (pod.volumes as Doc[]).find((v) => v.name === 'definitions')!;
    expect(definitions.emptyDir.medium).toBe('Memory');
    const at = (c: Doc) => (c.volumeMounts as Doc[]).find((m) => m.name === 'definitions')?.mountPath;
    expect([at(init!), at(pod.containers[0])]).toEqual(['/etc/rabbitmq/definitions', '/etc/rabbitmq/definitions']);
    expect(read('deploy/rabbitmq/90-frametext.conf')).toContain('load_definitions = /etc/rabbitmq/definitions/frametext.json');
  });

  it("makes the services' roles in a Job with the admin password and each service's URL, which may reach Postgres only", () => {
    const job = find('Job', 'db-setup')!;
    const pod = job.spec.template.spec;
    const [container] = pod.containers as Doc[];
    expect(container!.image).toBe(compose.services.postgres.image);
    expect(container!.command).toEqual(['/bin/bash', '/opt/frametext/db-setup.sh']);
    const env = Object.fromEntries((container!.env as Doc[]).map((e) => [e.name, e.value ?? e.valueFrom.secretKeyRef]));
    expect(env.PGPASSWORD).toEqual({ name: 'frametext-infrastructure', key: 'POSTGRES_PASSWORD' });
    const postgresEnv = Object.fromEntries((podOf('postgres').containers[0].env as Doc[]).map((e) => [e.name, e.value]));
    expect(env).toMatchObject({ PGHOST: 'postgres', PGPORT: '5432', PGUSER: postgresEnv.POSTGRES_USER, PGDATABASE: postgresEnv.POSTGRES_DB });
    for (const [name, schema] of Object.entries(SCHEMA_OF)) expect(env[`DATABASE_URL_${schema.toUpperCase()}`], name).toEqual({ name: dbSecret(name), key: 'DATABASE_URL' });
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    expect(container!.securityContext).toMatchObject({ allowPrivilegeEscalation: false, readOnlyRootFilesystem: true });
    expect(pod.automountServiceAccountToken).toBe(false);
    // A Job cannot be changed in place: it removes itself, so the next apply runs it again.
    expect(job.spec.ttlSecondsAfterFinished).toBeGreaterThan(0);
    const script = base.find((d) => d.kind === 'ConfigMap' && d.metadata.name.startsWith('frametext-db-setup-'));
    expect(script?.data['db-setup.sh']).toBe(read('deploy/postgres/db-setup.sh'));
    expect((pod.volumes as Doc[]).find((v) => v.name === 'script')?.configMap.name).toBe(script?.metadata.name);
    // Its pod is let out to Postgres, and Postgres lets it in; nothing else.
    const label = job.spec.template.metadata.labels['app.kubernetes.io/name'];
    const egress = base.filter((d) => d.kind === 'NetworkPolicy' && d.spec.policyTypes.includes('Egress') && d.spec.podSelector.matchLabels?.['app.kubernetes.io/name'] === label);
    expect(egress.flatMap((p) => p.spec.egress)).toEqual([{ to: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'postgres' } } }], ports: [{ port: 5432 }] }]);
    expect(find('NetworkPolicy', 'database-from-setup')!.spec).toEqual({
      podSelector: { matchLabels: { 'app.kubernetes.io/name': 'postgres' } },
      policyTypes: ['Ingress'],
      ingress: [{ from: [{ podSelector: { matchLabels: { 'app.kubernetes.io/name': label } } }], ports: [{ port: 5432 }] }],
    });
  });

  it("starts the object store with the compose script (kustomize's copy of it)", () => {
    const script = base.find((d) => d.kind === 'ConfigMap' && d.metadata.name.startsWith('frametext-object-store-'));
    expect(script?.data['ceph-s3.sh']).toBe(read('deploy/object-store/ceph-s3.sh'));
    const volumes = podOf('object-store').volumes as Doc[];
    expect(volumes.find((v) => v.name === 'script')?.configMap.name).toBe(script?.metadata.name);
  });
});

describe('the KEDA overlays (k8s/overlays/keda, keda-ocr-cloud)', () => {
  const kedaDocs = RENDERED['k8s/overlays/keda']!;
  const withCloud = RENDERED['k8s/overlays/keda-ocr-cloud']!;
  const scaledIn = (docs: Doc[]) => docs.filter((d) => d.kind === 'ScaledObject');

  it('scales each worker on its own queue, counting unacked messages too (the management API), ocr-cloud never to zero', () => {
    // ocr-cloud's queue exists only once a worker with Google credentials declared it: its scaler is opt-in.
    expect(scaledIn(kedaDocs).map((d) => d.metadata.name).sort()).toEqual(['frame-extraction', 'ocr-tesseract']);
    expect(scaledIn(withCloud).map((d) => d.metadata.name).sort()).toEqual(['frame-extraction', 'ocr-cloud', 'ocr-tesseract']);
    for (const d of scaledIn(withCloud)) {
      const name = d.metadata.name as string;
      expect(finder(withCloud)('Deployment', d.spec.scaleTargetRef.name), name).toBeDefined();
      expect(d.spec.scaleTargetRef.name).toBe(name);
      const [trigger] = d.spec.triggers as Doc[];
      expect(trigger).toMatchObject({ type: 'rabbitmq', metadata: { protocol: 'http', mode: 'QueueLength', queueName: name }, authenticationRef: { name: 'rabbitmq-management' } });
      expect(Number(trigger!.metadata.value)).toBeGreaterThan(0);
      expect(d.spec.maxReplicaCount).toBeGreaterThan(d.spec.minReplicaCount);
    }
    expect(finder(withCloud)('ScaledObject', 'ocr-cloud')!.spec.minReplicaCount).toBeGreaterThanOrEqual(1);
    expect(finder(kedaDocs)('ScaledObject', 'ocr-tesseract')!.spec.minReplicaCount).toBe(0);
    // Without its scaler, ocr-cloud keeps the base's one replica.
    expect(finder(kedaDocs)('Deployment', 'ocr-cloud')!.spec.replicas).toBe(1);
  });

  it('authenticates to the management API, which RabbitMQ serves and only KEDA may reach, and replaces the CPU autoscaler', () => {
    const findIn = finder(kedaDocs);
    const auth = findIn('TriggerAuthentication', 'rabbitmq-management')!;
    const ref = (auth.spec.secretTargetRef as Doc[])[0]!;
    expect(ref.parameter).toBe('host');
    expect(findIn('Secret', ref.name)?.stringData[ref.key]).toMatch(/^http:\/\/.+:15672\/$/);
    const rabbit = findIn('StatefulSet', 'rabbitmq')!.spec.template.spec;
    expect((rabbit.containers[0].ports as Doc[]).map((p) => p.containerPort)).toContain(15672);
    expect(findIn('ConfigMap', 'rabbitmq-config')?.data.enabled_plugins).toContain('rabbitmq_management');
    expect((findIn('Service', 'rabbitmq')!.spec.ports as Doc[]).map((p) => p.port)).toContain(15672);
    expect(findIn('NetworkPolicy', 'rabbitmq-management-from-keda')!.spec.ingress[0]).toEqual({ from: [{ namespaceSelector: { matchLabels: { 'kubernetes.io/metadata.name': 'keda' } } }], ports: [{ port: 15672 }] });
    expect(findIn('NetworkPolicy', 'database-and-broker-from-services')?.spec.ingress[0].ports).toEqual([{ port: 5432 }, { port: 5672 }]);
    expect(kedaDocs.filter((d) => d.kind === 'HorizontalPodAutoscaler')).toEqual([]);
  });
});
