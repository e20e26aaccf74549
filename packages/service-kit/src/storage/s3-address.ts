import { isIP } from 'node:net';
import { ConfigError } from '../config/index.js';

/** How S3 requests name the bucket: in the path (`<endpoint>/<bucket>/<key>`) or in the host (`<bucket>.<host>/<key>`). */
export type S3Addressing = 'path' | 'virtual';

/** Where a bucket's objects are on the store: object `<key>` is at `<origin><pathPrefix>/<key>`. */
export interface BucketAddress {
  /** `scheme://host[:port]`: what requests to the bucket, presigned URLs included, are signed for and sent to. */
  origin: string;
  /** `/<bucket>` in path style, empty in virtual-host style. */
  pathPrefix: string;
}

// The minio client sends requests for these to a regional host of its own choosing, always in virtual-host style.
const GLOBAL_AWS_HOSTS = new Set(['s3.amazonaws.com', 's3.cn-north-1.amazonaws.com.cn']);

/**
 * The bucket's address on the store in the chosen style, as the minio client computes it: the services' calls,
 * their presigned URLs and the gateway's pass-through all use it. Settings under which the client would quietly
 * use another address are refused.
 */
export function bucketAddress(endpoint: string, bucket: string, addressing: S3Addressing): BucketAddress {
  const url = new URL(endpoint);
  if (GLOBAL_AWS_HOSTS.has(url.hostname)) {
    throw new ConfigError('S3_ENDPOINT', `name the bucket's region: https://s3.<region>.amazonaws.com, not ${url.hostname}`);
  }
  if (addressing === 'path') return { origin: url.origin, pathPrefix: `/${bucket}` };
  if (isIP(url.hostname.replace(/^\[(.*)\]$/, '$1'))) {
    throw new ConfigError('S3_ADDRESSING', 'virtual needs an S3_ENDPOINT with a host name, not an IP address');
  }
  if (url.protocol === 'https:' && bucket.includes('.')) {
    throw new ConfigError('S3_ADDRESSING', 'virtual over https needs a STORAGE_BUCKET without dots (no certificate covers its host name)');
  }
  url.hostname = `${bucket}.${url.hostname}`;
  return { origin: url.origin, pathPrefix: '' };
}
