import type { EventType } from '@frametext/contracts';
import { on, type Consumer } from '@frametext/service-kit';
import type { ResultsContext } from '../domain/context.js';
import { framesExtracted, ocrCompleted, uploadCompleted, uploadFailed } from '../domain/pipeline.js';

/** The events results consumes; the kit refuses to start unless each has exactly one consumer below. */
export const RESULTS_CONSUMES: EventType[] = ['upload.completed.v1', 'frames.extracted.v1', 'ocr.completed.v1', 'upload.failed.v1'];

export function resultsConsumers(ctx: ResultsContext): Consumer[] {
  return [
    on('upload.completed.v1', (event, { trx, log }) => uploadCompleted(ctx, { trx, log }, event.data)),
    on('frames.extracted.v1', (event, { trx, log }) => framesExtracted(ctx, { trx, log }, event.data)),
    on('ocr.completed.v1', (event, { trx, log }) => ocrCompleted(ctx, { trx, log }, event.data)),
    on('upload.failed.v1', (event, { trx, log }) => uploadFailed(ctx, { trx, log }, event.data)),
  ] as Consumer[];
}
