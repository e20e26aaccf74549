import { enqueueEvent } from '@frametext/service-kit';
import { purgeFailed } from '../data/purges.js';
import { countDoneFrames, lockStalled, markFailed, type StalledUpload } from '../data/uploads.js';
import type { ResultsContext } from './context.js';

const BATCH = 100;

function minutes(n: number): string {
  return n === 1 ? '1 minute' : `${n} minutes`;
}

/** Why a stalled upload failed, in words its owner can act on. */
async function stalledReason(ctx: ResultsContext, trx: Parameters<typeof countDoneFrames>[0], u: StalledUpload): Promise<string> {
  const waited = minutes(ctx.config.STALLED_AFTER_MINUTES);
  const end = 'The credits held for it have been returned; please upload it again.';
  if (u.frames_total == null) return `Processing stopped: the frames were not extracted within ${waited}. ${end}`;
  const done = await countDoneFrames(trx, u.id, u.frames_total);
  return `Processing stopped: no frame was read for ${waited} (${done} of ${u.frames_total} done). ${end}`;
}

/**
 * The watchdog: fails every upload still on its way (uploaded or processing) that has not moved for
 * STALLED_AFTER_MINUTES at `now` (no frames extracted, no new frame read), whatever stopped it (a message in a
 * dead-letter queue, a worker that keeps dying). In one transaction per batch: status failed with a reason a person
 * can read, its files due for a purge, and upload.failed.v1 (stage extraction or ocr), so billing releases the hold.
 * Late events for it change nothing: a failed upload is final. Returns the ids failed.
 */
export async function failStalledUploads(ctx: ResultsContext, now: Date = new Date()): Promise<string[]> {
  const before = new Date(now.getTime() - ctx.config.STALLED_AFTER_MINUTES * 60_000);
  const failed: string[] = [];
  for (;;) {
    const batch = await ctx.db.transaction(async (trx) => {
      const stalled = await lockStalled(trx, before, BATCH);
      for (const u of stalled) {
        const reason = await stalledReason(ctx, trx, u);
        await markFailed(trx, u.id, reason);
        await purgeFailed(trx, u.id);
        await enqueueEvent(trx, 'upload.failed.v1', { uploadId: u.id, userId: u.user_id, reason, stage: u.frames_total == null ? 'extraction' : 'ocr' });
        ctx.logger.warn({ uploadId: u.id, status: u.status, reason }, 'stalled upload failed');
      }
      return stalled.map((u) => u.id);
    });
    failed.push(...batch);
    if (batch.length < BATCH) return failed;
  }
}
