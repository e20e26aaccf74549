import type { EventType } from '@frametext/contracts';
import { on, type Consumer } from '@frametext/service-kit';
import { endAccountUploads } from '../domain/account-deletion.js';
import type { UploadContext } from '../domain/context.js';
import { forgetDeletedUpload } from '../domain/storage-quota.js';

export const UPLOAD_CONSUMES: EventType[] = ['upload.deleted.v1', 'user.deleted.v1'];

export function uploadConsumers(ctx: Pick<UploadContext, 'storage' | 'logger'>): Consumer[] {
  return [
    // Results deleted an upload and its files: it stops counting towards its owner's quota.
    on('upload.deleted.v1', async ({ data }, { trx, log }) => {
      if (await forgetDeletedUpload({ db: trx }, data)) log.info({ uploadId: data.uploadId }, 'deleted upload no longer counts towards the quota');
    }),
    // The owner deleted their account: what they still have open here is cancelled, the rest forgotten.
    on('user.deleted.v1', async ({ data }, scope) => void (await endAccountUploads(ctx, scope, data))),
  ];
}
