import { on, recordCancelledUpload, urgent, type Consumer } from '@frametext/service-kit';

/**
 * upload.deleted.v1, on the urgent queue (it must not wait behind the uploads queued for extraction): the upload is
 * recorded as cancelled in this service's table, which every replica looks at before storing each frame and in the
 * transaction of each OCR request, so an extraction under way stops at its next frame and one not started never does.
 */
export function uploadDeletedConsumer(): Consumer<'upload.deleted.v1'> {
  return urgent(
    on('upload.deleted.v1', async ({ data }, { trx, log }) => {
      if (await recordCancelledUpload(trx, data.uploadId)) log.info({ uploadId: data.uploadId }, 'upload deleted: its extraction stops');
    }),
  );
}
