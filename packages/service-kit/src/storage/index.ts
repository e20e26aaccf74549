import { join } from 'node:path';
import { ConfigError, type BaseConfig } from '../config/index.js';
import { FsObjectStorage } from './fs.js';
import { S3ObjectStorage } from './s3.js';
import type { ObjectStorage } from './types.js';

export { FsObjectStorage, type FsStorageOptions } from './fs.js';
export { S3ObjectStorage, type S3StorageOptions } from './s3.js';
export { bucketAddress, type BucketAddress, type S3Addressing } from './s3-address.js';
export { createFsObjectRouter, DEFAULT_BODY_IDLE_TIMEOUT_MS, DEFAULT_MAX_UPLOAD_BYTES, type FsObjectRouterOptions } from './fs-router.js';
export { assertValidKey } from './keys.js';

/** The store the configuration names: `fs` under STORAGE_FS_ROOT (default `<DATA_DIR>/objects`) or `s3`. */
export function createStorage(config: BaseConfig): ObjectStorage {
  if (config.STORAGE_DRIVER === 's3') {
    const { S3_ENDPOINT, S3_ACCESS_KEY, S3_SECRET_KEY } = config;
    if (!S3_ENDPOINT) throw new ConfigError('S3_ENDPOINT', 'required when STORAGE_DRIVER=s3');
    if (!S3_ACCESS_KEY) throw new ConfigError('S3_ACCESS_KEY', 'required when STORAGE_DRIVER=s3');
    if (!S3_SECRET_KEY) throw new ConfigError('S3_SECRET_KEY', 'required when STORAGE_DRIVER=s3');
    return new S3ObjectStorage({
      endpoint: S3_ENDPOINT,
      publicEndpoint: config.S3_PUBLIC_ENDPOINT,
      addressing: config.S3_ADDRESSING,
      accessKey: S3_ACCESS_KEY,
      secretKey: S3_SECRET_KEY,
      region: config.S3_REGION,
      bucket: config.STORAGE_BUCKET,
    });
  }
  return new FsObjectStorage({
    root: config.STORAGE_FS_ROOT ?? join(config.DATA_DIR, 'objects'),
    publicUrl: config.STORAGE_PUBLIC_URL,
    signingSecret: config.STORAGE_SIGNING_SECRET,
  });
}
