import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_REGISTRY, serviceUrlSetting } from '@frametext/contracts';
import { MIGRATION_LOCK_CLASS } from '../packages/service-kit/src/db/index.js';
import { LOCAL_IMAGES, LOCAL_VERSIONS } from '../scripts/lib/local-images.mjs';

// Offline checks of the container files against the service registry: what an operator relies on when deploying.
// The images themselves are built and run by `npm run test:containers`; the Kubernetes manifests are checked by
// test/k8s-manifests.test.ts.
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const APP_SERVICES = SERVICE_REGISTRY.map((s) => s.name);
const PORT = Object.fromEntries(SERVICE_REGISTRY.map((s) => [s.name, s.port])) as Record<string, number>;
const INFRA = ['postgres', 'rabbitmq', 'object-store'];
/** The one-shot that makes each service's Postgres role (deploy/postgres/db-setup.sh) and exits. */
const SETUP = 'db-setup';
/** The services with a Postgres schema of their own (packages/service-kit's schemaName), and so a role. */
const SCHEMA_OF = Object.fromEntries(APP_SERVICES.filter((n) => n !== 'gateway').map((n) => [n, n.replace(/-/g, '_')])) as Record<string, string>;
const DB_PASSWORDS = Object.values(SCHEMA_OF).map((schema) => `POSTGRES_PASSWORD_${schema.toUpperCase()}`);
const BROKER_PASSWORDS = Object.keys(SCHEMA_OF).map((name) => `RABBITMQ_PASSWORD_${name.replace(/-/g, '_').toUpperCase()}`);
const SECRETS = ['POSTGRES_PASSWORD', ...DB_PASSWORDS, 'RABBITMQ_PASSWORD', ...BROKER_PASSWORDS, 'S3_ACCESS_KEY', 'S3_SECRET_KEY', 'STORAGE_SIGNING_SECRET', 'SERVICE_TOKEN_SECRET', 'JWT_KEY_PASSPHRASE'];
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

  it('runs every service of the registry, built from the one Dockerfile, plus postgres, rabbitmq, the object store and db-setup', () => {
    expect(Object.keys(services).sort()).toEqual([...INFRA, SETUP, ...APP_SERVICES].sort());
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

  it('restarts every container but the one-shot setup, and stops the object store gracefully', () => {
    for (const [name, s] of Object.entries(services)) expect(s.restart, name).toBe(name === SETUP ? 'no' : 'unless-stopped');
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

  it('gives every long-running container a health check and starts services only after healthy infrastructure', () => {
    for (const [name, s] of Object.entries(services)) if (name !== SETUP) expect(s.healthcheck?.test, name).toBeTruthy();
    for (const name of APP_SERVICES.filter((n) => n !== 'gateway')) {
      for (const infra of INFRA) expect(services[name]?.depends_on?.[infra]?.condition, `${name} -> ${infra}`).toBe('service_healthy');
      expect(services[name]?.depends_on?.[SETUP]?.condition, `${name} -> ${SETUP}`).toBe('service_completed_successfully');
      expect(services[name]?.environment?.DATABASE_URL, name).toMatch(/@postgres:5432\//);
      expect(services[name]?.environment?.STORAGE_DRIVER, name).toBe('s3');
      expect(services[name]?.environment?.S3_ENDPOINT, name).toBe('http://object-store:7480');
    }
  });

  // Least privilege: the admin password reaches the postgres container and the one-shot setup, no service.
  it('gives each service a Postgres role and password of its own, made by db-setup with the admin password', () => {
    const admin = /\$\{POSTGRES_PASSWORD[:}]/;
    for (const [name, s] of Object.entries(services)) {
      const env = JSON.stringify(s.environment ?? {});
      expect(admin.test(env), `${name} gets the admin password`).toBe(['postgres', SETUP].includes(name));
    }
    const setup = services[SETUP]!;
    expect(setup.image).toBe(services.postgres!.image);
    expect(setup.entrypoint).toEqual(['/bin/bash', '/opt/frametext/db-setup.sh']);
    expect(setup.volumes).toEqual(['./deploy/postgres:/opt/frametext:ro']);
    expect(setup.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(setup.environment).toMatchObject({ PGHOST: 'postgres', PGUSER: services.postgres!.environment.POSTGRES_USER, PGDATABASE: services.postgres!.environment.POSTGRES_DB });
    expect(setup.environment.PGPASSWORD).toMatch(/^\$\{POSTGRES_PASSWORD:\?/);
    for (const [name, schema] of Object.entries(SCHEMA_OF)) {
      const url = services[name]!.environment.DATABASE_URL as string;
      expect(url, name).toMatch(new RegExp(`^postgres://frametext_${schema}:\\$\\{POSTGRES_PASSWORD_${schema.toUpperCase()}:\\?[^}]*\\}@postgres:5432/frametext$`));
      expect(setup.environment[`DATABASE_URL_${schema.toUpperCase()}`], name).toBe(url);
    }
    expect(Object.keys(setup.environment).filter((k) => k.startsWith('DATABASE_URL_')).length).toBe(Object.keys(SCHEMA_OF).length);
    expect(services.gateway!.environment.DATABASE_URL).toBeUndefined();
  });

  // The broker's admin password reaches the broker alone; each service logs in as its own user.
  it('gives each service a broker user and password of its own, which the broker makes at start', () => {
    const admin = /\$\{RABBITMQ_PASSWORD[:}]/;
    for (const [name, s] of Object.entries(services)) {
      expect(admin.test(JSON.stringify(s.environment ?? {})), `${name} gets the broker admin password`).toBe(name === 'rabbitmq');
    }
    const rabbit = services.rabbitmq!;
    expect(rabbit.entrypoint).toEqual(['/bin/bash', '/opt/frametext/broker-users.sh', 'docker-entrypoint.sh']);
    expect(rabbit.command).toEqual(['rabbitmq-server']);
    expect(rabbit.volumes).toContain('./deploy/rabbitmq:/opt/frametext:ro');
    for (const name of Object.keys(SCHEMA_OF)) {
      const setting = name.replace(/-/g, '_').toUpperCase();
      const url = services[name]!.environment.RABBITMQ_URL as string;
      expect(url, name).toMatch(new RegExp(`^amqp://frametext-${name}:\\$\\{RABBITMQ_PASSWORD_${setting}:\\?[^}]*\\}@rabbitmq:5672$`));
      expect(rabbit.environment[`RABBITMQ_URL_${setting}`], name).toBe(url);
    }
    expect(services.gateway!.environment.RABBITMQ_URL).toBeUndefined();
    expect(read('deploy/rabbitmq/90-frametext.conf')).toMatch(/^load_definitions = \/etc\/rabbitmq\/definitions\/frametext\.json$/m);
    // The local stand-in answers to the official image's entrypoint and command.
    expect(read('deploy/local/rabbitmq.Containerfile')).toMatch(/^ENTRYPOINT \["docker-entrypoint\.sh"\]\nCMD \["rabbitmq-server"\]$/m);
  });

  it("db-setup's script knows every schema and takes the services' migration lock", () => {
    const script = read('deploy/postgres/db-setup.sh');
    expect(spawnSync('bash', ['-n', path.join(root, 'deploy/postgres/db-setup.sh')]).status).toBe(0);
    expect(/^SCHEMAS=\(([^)]*)\)$/m.exec(script)?.[1]?.split(' ')).toEqual(Object.values(SCHEMA_OF));
    expect(Number(/^MIGRATION_LOCK_CLASS=(\d+)$/m.exec(script)?.[1])).toBe(MIGRATION_LOCK_CLASS);
  });

  it('gives RabbitMQ a memory limit and the absolute watermark of deploy/rabbitmq, half of it, and its queue metrics', () => {
    const rabbit = services.rabbitmq!;
    expect(rabbit.volumes).toContain('./deploy/rabbitmq/90-frametext.conf:/etc/rabbitmq/conf.d/90-frametext.conf:ro');
    const watermark = /^vm_memory_high_watermark\.absolute\s*=\s*(\d+)MiB\s*$/m.exec(read('deploy/rabbitmq/90-frametext.conf'))?.[1];
    expect(Number(watermark) * 1024 ** 2).toBeLessThanOrEqual(0.6 * 1024 ** 3);
    expect(rabbit.mem_limit).toBe('1g');
    // The official image enables rabbitmq_prometheus itself; the local stand-in does the same.
    expect(read('deploy/local/rabbitmq.Containerfile')).toMatch(/^RUN rabbitmq-plugins enable --offline rabbitmq_prometheus$/m);
    // The local stand-in writes its own conf.d file beside the mounted one, which it must leave alone.
    expect(read('deploy/local/rabbitmq-entrypoint.sh')).not.toMatch(/chown -R[^\n]*conf\.d/);
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

  it('changes only the images of the infrastructure (and db-setup, the postgres image), to the locally built ones', () => {
    expect(Object.keys(local)).toEqual(['services']);
    expect(Object.keys(local.services).sort()).toEqual([...INFRA, SETUP].sort());
    for (const [name, s] of Object.entries(local.services as Record<string, Doc>)) {
      expect(Object.keys(s), name).toEqual(['image']);
      expect(s.image, name).toMatch(/^localhost\/frametext-/);
    }
    expect(local.services.postgres.image).toBe(LOCAL_IMAGES.postgres);
    expect(local.services[SETUP].image).toBe(LOCAL_IMAGES.postgres);
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
