import type { EventType } from '@frametext/contracts';
import { on, type Consumer } from '@frametext/service-kit';
import type { ResultsContext } from '../domain/context.js';
import { deleteAccountUploads } from '../domain/deletion.js';
import { framesExtracted, ocrCompleted, uploadCompleted, uploadFailed } from '../domain/pipeline.js';

/** The events results consumes; the kit refuses to start unless each has exactly one consumer below. */
export const RESULTS_CONSUMES: EventType[] = ['upload.completed.v1', 'frames.extracted.v1', 'ocr.completed.v1', 'upload.failed.v1', 'user.deleted.v1'];

export function resultsConsumers(ctx: ResultsContext): Consumer[] {
  return [
    on('upload.completed.v1', (event, scope) => uploadCompleted(ctx, scope, event.data)),
    on('frames.extracted.v1', (event, scope) => framesExtracted(ctx, scope, event.data)),
    on('ocr.completed.v1', (event, scope) => ocrCompleted(ctx, scope, event.data)),
    on('upload.failed.v1', (event, scope) => uploadFailed(ctx, scope, event.data)),
    on('user.deleted.v1', async (event, scope) => void (await deleteAccountUploads(ctx, scope, event.data))),
  ] as Consumer[];
}
