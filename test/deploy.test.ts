import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { SERVICE_PORTS } from '../services/gateway/src/config.js';

// Offline checks of the container and Kubernetes files: what an operator relies on when deploying.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const APP_SERVICES = Object.keys(SERVICE_PORTS) as (keyof typeof SERVICE_PORTS)[];

type Doc = Record<string, any>;

describe('docker-compose.yml', () => {
  const compose = parse(read('docker-compose.yml'), { merge: true }) as Doc;
  const services = compose.services as Record<string, Doc>;

  const hasCompose = spawnSync('which', ['docker-compose']).status === 0;
  if (!hasCompose) console.warn('deploy.test: docker-compose is not installed; skipping `docker-compose config -q` (the YAML checks below still run)');
  it.skipIf(!hasCompose)('is accepted by docker-compose config', () => {
    execFileSync('docker-compose', ['-f', 'docker-compose.yml', 'config', '-q'], { cwd: root, stdio: 'pipe', timeout: 20_000 });
  });

  it('runs every service, built from the one Dockerfile, plus postgres, rabbitmq and minio', () => {
    for (const name of APP_SERVICES) {
      expect(services[name]?.build?.dockerfile, name).toBe('deploy/Dockerfile');
      expect(services[name]?.build?.args?.SERVICE, name).toBe(name);
      expect(String(services[name]?.environment?.PORT), name).toBe(String(SERVICE_PORTS[name]));
    }
    expect(services.postgres?.image).toBe('postgres:16');
    expect(services.rabbitmq?.image).toBe('rabbitmq:3-management');
    expect(services.minio?.image).toMatch(/^minio\/minio/);
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
      for (const infra of ['postgres', 'rabbitmq', 'minio']) expect(services[name]?.depends_on?.[infra]?.condition, `${name} -> ${infra}`).toBe('service_healthy');
      expect(services[name]?.environment?.DATABASE_URL, name).toMatch(/@postgres:5432\//);
      expect(services[name]?.environment?.STORAGE_DRIVER, name).toBe('s3');
    }
  });

  it('points the gateway at each service by its compose name and port', () => {
    const env = services.gateway!.environment as Record<string, string>;
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) {
      expect(env[`${name.toUpperCase().replace(/-/g, '_')}_URL`]).toBe(`http://${name}:${SERVICE_PORTS[name]}`);
    }
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

  it.each(APP_SERVICES)('%s has a Deployment and a Service with probes, limits, non-root and a read-only root', (name) => {
    const deployment = find('Deployment', name);
    const service = find('Service', name);
    expect(deployment, `Deployment ${name}`).toBeDefined();
    expect(service, `Service ${name}`).toBeDefined();
    const pod = deployment!.spec.template.spec;
    const [container] = pod.containers as Doc[];
    expect(container!.readinessProbe.httpGet.path).toBe('/health/ready');
    expect(container!.livenessProbe.httpGet.path).toBe('/health/live');
    expect(container!.ports[0].containerPort).toBe(SERVICE_PORTS[name]);
    expect(service!.spec.ports[0].port).toBe(SERVICE_PORTS[name]);
    expect(service!.spec.selector).toEqual(deployment!.spec.selector.matchLabels);
    expect(pod.securityContext?.runAsNonRoot ?? container!.securityContext?.runAsNonRoot).toBe(true);
    expect(container!.resources.limits.cpu).toBeTruthy();
    expect(container!.resources.limits.memory).toBeTruthy();
    expect(container!.resources.requests.memory).toBeTruthy();
    expect(container!.securityContext.readOnlyRootFilesystem).toBe(true);
    const tmp = (container!.volumeMounts as Doc[]).find((m) => m.mountPath === '/tmp');
    expect((pod.volumes as Doc[]).find((v) => v.name === tmp?.name)?.emptyDir).toBeDefined();
  });

  it('exposes only the gateway through the Ingress, and lets only the gateway reach the services', () => {
    const ingresses = docs.filter((d) => d.kind === 'Ingress');
    const backends = ingresses.flatMap((i) => (i.spec.rules as Doc[]).flatMap((r) => (r.http.paths as Doc[]).map((p) => p.backend.service.name)));
    expect(new Set(backends)).toEqual(new Set(['gateway']));
    const services = find('NetworkPolicy', 'services-from-gateway');
    expect(services?.spec.podSelector.matchLabels['frametext.io/tier']).toBe('service');
    expect(services?.spec.ingress[0].from).toEqual([{ podSelector: { matchLabels: { 'app.kubernetes.io/name': 'gateway' } } }]);
    expect(find('NetworkPolicy', 'default-deny-ingress')?.spec.podSelector).toEqual({});
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) {
      expect(find('Deployment', name)!.spec.template.metadata.labels['frametext.io/tier'], name).toBe('service');
    }
  });

  it('autoscales the Tesseract OCR workers', () => {
    const hpa = find('HorizontalPodAutoscaler', 'ocr-tesseract');
    expect(hpa?.spec.scaleTargetRef).toMatchObject({ kind: 'Deployment', name: 'ocr-tesseract' });
    expect(hpa?.spec.maxReplicas).toBeGreaterThan(hpa?.spec.minReplicas);
  });

  it('runs postgres, rabbitmq and minio as StatefulSets', () => {
    for (const name of ['postgres', 'rabbitmq', 'minio']) expect(find('StatefulSet', name), name).toBeDefined();
  });
});

describe('image recipe', () => {
  const dockerfile = read('deploy/Dockerfile');

  it('pins the pnpm of package.json and runs as a non-root user with a health check', () => {
    const pinned = (JSON.parse(read('package.json')) as { packageManager: string }).packageManager.replace('pnpm@', '');
    expect(dockerfile).toContain(`pnpm@${pinned}`);
    expect(dockerfile).toMatch(/^ARG SERVICE$/m);
    expect(dockerfile).toMatch(/^USER 1000:1000$/m);
    expect(dockerfile).toMatch(/^HEALTHCHECK .*healthcheck\.mjs/m);
  });

  it("health check script's default ports match the port table", () => {
    const block = /DEFAULT_PORTS = \{([^}]*)\}/.exec(read('deploy/healthcheck.mjs'))?.[1] ?? '';
    const ports = Object.fromEntries([...block.matchAll(/'?([a-z-]+)'?: (\d+)/g)].map((m) => [m[1], Number(m[2])]));
    expect(ports).toEqual(SERVICE_PORTS);
  });
});
