import { on, recordCancelledUpload, urgent, type Consumer } from '@frametext/service-kit';

/**
 * upload.deleted.v1, on the urgent queue (the upload's frames may fill the work queue ahead of it): the upload is
 * recorded as cancelled in this worker's table, which every replica looks at before sending a frame to Google and in
 * the transaction that would publish a frame's text. Its queued frames are then skipped, and a read in flight (a
 * Vision batch) finishes with its text dropped.
 */
export function uploadDeletedConsumer(): Consumer<'upload.deleted.v1'> {
  return urgent(
    on('upload.deleted.v1', async ({ data }, { trx, log }) => {
      if (await recordCancelledUpload(trx, data.uploadId)) log.info({ uploadId: data.uploadId }, 'upload deleted: its frames are no longer read');
    }),
  );
}
