import { execFile } from 'node:child_process';
import { Client } from 'minio';
import dns from 'node:dns';
import type { LookupFunction } from 'node:net';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const SCRIPT = fileURLToPath(new URL('../../../../scripts/test-s3-server.sh', import.meta.url));

/** The throw-away Ceph RADOS Gateway: path style at `endpoint`, virtual-host style at `virtualEndpoint`. */
export interface TestS3Server {
  endpoint: string;
  /** The same gateway by its DNS name, localhost: bucket `b` is at `b.localhost` (resolve it with loopbackLookup). */
  virtualEndpoint: string;
  accessKey: string;
  secretKey: string;
}

/**
 * Starts (or reuses) the gateway of scripts/test-s3-server.sh. When Ceph is not installed or does not come up, the
 * answer is the reason, for the caller to skip its tests with.
 */
export async function startTestS3Server(): Promise<TestS3Server | { skipReason: string }> {
  try {
    const { stdout } = await promisify(execFile)('bash', [SCRIPT], { timeout: 120_000 });
    const env = Object.fromEntries(stdout.trim().split('\n').map((line) => line.split('=', 2) as [string, string]));
    if (!env.S3_ENDPOINT || !env.S3_VIRTUAL_ENDPOINT || !env.S3_ACCESS_KEY || !env.S3_SECRET_KEY) return { skipReason: `unexpected output from ${SCRIPT}: ${stdout}` };
    return { endpoint: env.S3_ENDPOINT, virtualEndpoint: env.S3_VIRTUAL_ENDPOINT, accessKey: env.S3_ACCESS_KEY, secretKey: env.S3_SECRET_KEY };
  } catch (err) {
    const e = err as { code?: number | string; stderr?: string; message: string };
    const detail = (e.stderr ?? '').trim().split('\n').slice(-2).join(' / ') || e.message;
    return { skipReason: e.code === 2 ? `Ceph RADOS Gateway is not installed (${detail})` : `the RADOS Gateway did not come up: ${detail}` };
  }
}

/** Removes a bucket a test made on the test gateway, with whatever is still in it. */
export async function removeTestBucket(server: TestS3Server, bucket: string): Promise<void> {
  const url = new URL(server.endpoint);
  const client = new Client({ endPoint: url.hostname, port: Number(url.port), useSSL: false, accessKey: server.accessKey, secretKey: server.secretKey, pathStyle: true });
  if (!(await client.bucketExists(bucket))) return;
  const names: string[] = [];
  for await (const item of client.listObjectsV2(bucket, '', true)) names.push((item as { name: string }).name);
  if (names.length) await client.removeObjects(bucket, names);
  await client.removeBucket(bucket);
}

/**
 * Resolves `localhost` and every `*.localhost` name (the test gateway's bucket host names) to 127.0.0.1, and other
 * names as usual; `seen` hears each loopback name asked for. For an http.Agent's `lookup`.
 */
export function loopbackLookup(seen: (hostname: string) => void = () => {}): LookupFunction {
  return (hostname, options, callback) => {
    if (hostname !== 'localhost' && !hostname.endsWith('.localhost')) return dns.lookup(hostname, options, callback);
    seen(hostname);
    if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
    else callback(null, '127.0.0.1', 4);
  };
}
