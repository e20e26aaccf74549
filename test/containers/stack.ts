// The compose stack that `npm run test:containers` started: its gateway's address and its containers, reached
// with the same podman settings the run uses (it passes them in the environment).
import { execFileSync } from 'node:child_process';
import { UPSTREAM_SERVICE_NAMES } from '@frametext/contracts';

export const BASE_URL = process.env.IT_BASE_URL ?? '';
const PROJECT = process.env.IT_PROJECT ?? '';
if (!BASE_URL || !PROJECT) throw new Error('run these tests with `npm run test:containers`: it starts the stack they test');

/** The upstream services of the registry, as /api/health lists them. */
export const UPSTREAM: string[] = [...UPSTREAM_SERVICE_NAMES];

const podman = (args: string[]) => execFileSync('podman', args, { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'] });

export interface Container {
  id: string;
  name: string;
}

/** The running containers of one compose service. */
export function containersOf(service: string): Container[] {
  return podman(['ps', '--filter', `label=com.docker.compose.project=${PROJECT}`, '--filter', `label=com.docker.compose.service=${service}`, '--format', '{{.ID}} {{.Names}}'])
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((line) => {
      const [id, name] = line.split(' ');
      return { id: id!, name: name! };
    });
}

/** A container's log lines that are JSON (pino), parsed. */
export function jsonLogs(container: Container): Record<string, any>[] {
  const text = execFileSync('sh', ['-c', 'podman logs "$1" 2>&1', 'logs', container.id], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return text
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        return {};
      }
    });
}

/** SIGKILL: the container's processes get no chance to finish anything. */
export function kill(container: Container): void {
  podman(['kill', '--signal', 'KILL', container.id]);
}

/**
 * The messages identity wrote to its mailbox folder (no SMTP in the stack), oldest first: the folder is inside its
 * container (DATA_DIR of the image), read through podman.
 */
export async function identityMail(): Promise<string[]> {
  const [identity] = containersOf('identity');
  if (!identity) return [];
  const text = podman(['exec', identity.id, 'sh', '-c', 'for f in $(ls "$DATA_DIR/mailbox" 2>/dev/null | sort); do cat "$DATA_DIR/mailbox/$f"; printf "\\0"; done']);
  return text.split('\0').filter((m) => m.trim() !== '');
}

/** The services' own Postgres schemas (the gateway keeps none). */
export const SERVICE_SCHEMAS = ['identity', 'upload', 'frame_extraction', 'ocr_tesseract', 'ocr_cloud', 'billing', 'results'];

/** The stack's Postgres container. */
export function postgres(): Container {
  const [c] = containersOf('postgres');
  if (!c) throw new Error('no running postgres container');
  return c;
}

/** One SQL statement run by psql in the stack's Postgres container: its rows, tab-separated, no header. */
export function sql(statement: string): string[][] {
  const out = podman(['exec', postgres().id, 'psql', '-U', 'frametext', '-d', 'frametext', '-X', '-q', '-A', '-t', '-F', '\t', '-v', 'ON_ERROR_STOP=1', '-c', statement]);
  return out
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => l.split('\t'));
}

/** Restarts a container (SIGTERM, then its stop timeout) and answers when its processes run again. */
export function restart(container: Container): void {
  podman(['restart', '-t', '30', container.id]);
}

/** When the container's current processes started (an ISO time). */
export function startedAt(container: Container): string {
  return podman(['inspect', '--format', '{{.State.StartedAt}}', container.id]).trim();
}

/** The gateway's /api/health: its status code and body. */
export async function health(): Promise<{ status: number; body: any }> {
  const res = await fetch(`${BASE_URL}/api/health`);
  return { status: res.status, body: await res.json().catch(() => undefined) };
}
