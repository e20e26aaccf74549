import { useCallback, useEffect, useRef, useState } from 'react';
import type { GetUploadUrlRequest, GetUploadUrlResponse, ServerEngine } from '@frametext/contracts';
import { DEFAULT_MEDIA_CONTENT, type MediaContent } from '@frametext/contracts/rules';
import type { LinkUploadRequestBody } from '../api';
import { useAppDispatch } from '../../../lib/store';
import { toastShown } from '../../../lib/ui';
import { api, errorCode, errorMessage } from '../../../lib/api';
import { newTraceId } from '../../../lib/traceContext';
import { useGetUploadURLMutation, useUploadCompleteMutation } from '../api';
import { putFile } from '../media';

export type TransferPhase = 'idle' | 'requesting' | 'sending' | 'completing';

export interface TransferProgress {
  sent: number;
  total: number;
}

export interface StartedUpload {
  uploadID: string;
  quote: Pick<GetUploadUrlResponse, 'framesRequested' | 'maxFrames' | 'creditCost'>;
  /** How it is read: the engine, and whether frames are cut from a video (the advice after a reading with no text). */
  engine: ServerEngine;
  /** What the upload shows, as chosen (the seven-segment reader runs on Numerical uploads only). */
  mediaContent: MediaContent;
  isVideo: boolean;
  /** A video by link, which the server fetches first (its quote is for the most frames it can have). */
  byLink?: boolean;
}

const isAbort = (e: unknown) => e instanceof DOMException && e.name === 'AbortError';

/**
 * Step 1's upload: ask for URLs, PUT every file with real byte progress, then confirm with uploadComplete.
 * Server refusals (400, 402, 503...) become a toast with the server's sentence and leave the person on step 1.
 */
export function useUploadTransfer(onStarted: (upload: StartedUpload) => void) {
  const dispatch = useAppDispatch();
  const [getUploadURL] = useGetUploadURLMutation();
  const [uploadComplete] = useUploadCompleteMutation();
  const [phase, setPhase] = useState<TransferPhase>('idle');
  const [progress, setProgress] = useState<TransferProgress>({ sent: 0, total: 0 });
  const abortRef = useRef<AbortController | null>(null);

  // Leaving the page (or Start Over, which remounts the wizard) stops a transfer in flight.
  useEffect(() => () => abortRef.current?.abort(), []);

  const start = useCallback(
    async (request: GetUploadUrlRequest | LinkUploadRequestBody, files: readonly File[], contentType: string) => {
      const controller = new AbortController();
      abortRef.current = controller;
      const traceId = newTraceId();
      const total = files.reduce((sum, f) => sum + f.size, 0);
      setProgress({ sent: 0, total });
      setPhase('requesting');
      const fail = (text: string) => {
        if (!controller.signal.aborted) dispatch(toastShown(text, 'error'));
        setPhase('idle');
      };

      let answer: GetUploadUrlResponse;
      try {
        answer = await getUploadURL({ request, traceId }).unwrap();
      } catch (e) {
        // The engine went away since the page read the engines (its workers stopped): read them again, so the
        // wizard switches to one that is available and says why.
        if (errorCode(e) === 'upload/engine-unavailable') dispatch(api.util.invalidateTags(['Config']));
        return fail(errorMessage(e, 'The upload could not be started. Please try again.'));
      }
      if (controller.signal.aborted) return setPhase('idle');
      if (request.kind === 'link') {
        // A video by link: the server fetches it; nothing to send or confirm. Step 2 shows the fetch, then the reading.
        abortRef.current = null;
        setPhase('idle');
        dispatch(api.util.invalidateTags(['Profile']));
        return onStarted({ uploadID: answer.uploadID, quote: { framesRequested: answer.framesRequested, maxFrames: answer.maxFrames, creditCost: answer.creditCost }, engine: request.ocrType ?? 'cloud', mediaContent: request.mediaContent ?? DEFAULT_MEDIA_CONTENT, isVideo: true, byLink: true });
      }
      if (answer.urls.length !== files.length) {
        return fail(`The server gave ${answer.urls.length} upload addresses for ${files.length} files. Please start the upload again.`);
      }

      setPhase('sending');
      let before = 0;
      try {
        for (const [i, url] of answer.urls.entries()) {
          const file = files[i] as File;
          await putFile(url, file, contentType, (sent) => setProgress({ sent: before + sent, total }), controller.signal);
          before += file.size;
        }
      } catch (e) {
        if (isAbort(e)) return setPhase('idle');
        return fail(e instanceof Error ? e.message : 'The upload was interrupted. Please try again.');
      }

      setPhase('completing');
      try {
        await uploadComplete({ uploadID: answer.uploadID, traceId }).unwrap();
      } catch (e) {
        return fail(errorMessage(e, 'The files arrived but the upload could not be confirmed. Please try again.'));
      }
      if (controller.signal.aborted) return setPhase('idle');
      abortRef.current = null;
      setPhase('idle');
      onStarted({
        uploadID: answer.uploadID,
        quote: { framesRequested: answer.framesRequested, maxFrames: answer.maxFrames, creditCost: answer.creditCost },
        engine: request.ocrType ?? 'cloud',
        mediaContent: request.mediaContent ?? DEFAULT_MEDIA_CONTENT,
        isVideo: request.kind !== 'photos',
      });
    },
    [dispatch, getUploadURL, uploadComplete, onStarted],
  );

  const cancel = useCallback(() => abortRef.current?.abort(), []);

  return { phase, progress, running: phase !== 'idle', start, cancel };
}
