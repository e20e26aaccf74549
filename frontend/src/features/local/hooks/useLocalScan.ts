import { useCallback, useEffect, useRef, useState } from 'react';
import { openOcrPool, workerCount, type OcrPool } from '../engine/ocrPool';
import { scanVideo, type ScannedFrame } from '../engine/scan';
import { OCR_FAILED } from '../rules';

export type ScanState =
  | { phase: 'idle' }
  | { phase: 'scanning'; done: number; total: number; frames: ScannedFrame[] }
  /** `seconds`: the whole run; `readSeconds`: from the workers being ready to the last frame read. */
  | { phase: 'done'; frames: ScannedFrame[]; seconds: number; readSeconds: number }
  | { phase: 'failed'; message: string; frames: ScannedFrame[] };

/**
 * Runs a scan of the page's <video> and follows it: frames appear as they are read. A new scan, a new video or
 * leaving the page stops the one under way and closes its workers.
 */
export function useLocalScan(videoRef: React.RefObject<HTMLVideoElement | null>) {
  const [state, setState] = useState<ScanState>({ phase: 'idle' });
  const running = useRef<{ abort: AbortController; pool: Promise<OcrPool> | null } | null>(null);

  const stop = useCallback(() => {
    const current = running.current;
    running.current = null;
    if (!current) return;
    current.abort.abort();
    void current.pool?.then((pool) => pool.close()).catch(() => undefined);
  }, []);

  useEffect(() => stop, [stop]);

  const reset = useCallback(() => {
    stop();
    setState({ phase: 'idle' });
  }, [stop]);

  const start = useCallback(
    async (times: readonly number[], scale: number) => {
      stop();
      const abort = new AbortController();
      const pool = openOcrPool(workerCount(times.length));
      const run = { abort, pool };
      running.current = run;
      const frames: ScannedFrame[] = [];
      const started = performance.now();
      setState({ phase: 'scanning', done: 0, total: times.length, frames: [] });
      try {
        const ready = await pool;
        const readFrom = performance.now();
        const read = await scanVideo({
          video: videoRef.current,
          times,
          scale,
          pool: ready,
          signal: abort.signal,
          onFrame: (frame, index) => {
            frames[index] = frame;
          },
          onProgress: (done, total) => {
            if (running.current === run) setState({ phase: 'scanning', done, total, frames: frames.filter(Boolean) });
          },
        });
        if (running.current !== run) return null;
        const now = performance.now();
        setState({ phase: 'done', frames: read, seconds: (now - started) / 1000, readSeconds: (now - readFrom) / 1000 });
        return read;
      } catch (error) {
        if (running.current !== run) return null;
        const message = error instanceof Error && error.message ? error.message : OCR_FAILED;
        setState({ phase: 'failed', message, frames: frames.filter(Boolean) });
        // The spec: an alert with the message, or "OCR failed".
        window.alert(message);
        return null;
      } finally {
        if (running.current === run) {
          running.current = null;
          void pool.then((p) => p.close()).catch(() => undefined);
        }
      }
    },
    [stop, videoRef],
  );

  return { state, start, reset };
}
