import type { IncomingMessage } from 'node:http';
import { AppError } from '../errors/index.js';

/** Clocks on a request body that a route reads as a stream (the gateway's proxy, the /files router). */
export interface BodyClock {
  /** The whole body must have arrived this long after the clock starts. */
  totalMs?: number;
  /**
   * The client must send something at least this often. Time spent waiting on our side (the body paused by
   * back-pressure, or bytes received and not read yet) does not count: that slowness is not the client's.
   */
  idleMs?: number;
}

export const bodyTimeoutError = (ms: number) =>
  new AppError(408, 'request/body-timeout', `The request body did not arrive within ${formatSeconds(ms)}. Send it again in one go.`);

export const bodyIdleError = (ms: number) =>
  new AppError(408, 'request/body-idle', `The upload stalled: nothing arrived for ${formatSeconds(ms)}. Check the connection and send the file again.`);

function formatSeconds(ms: number): string {
  const s = ms / 1000;
  return `${Number.isInteger(s) ? s : s.toFixed(1)} s`;
}

/**
 * Starts the clocks on `req`'s body and calls `onTimeout` once with a 408 AppError when one runs out. The clocks
 * stop by themselves when the body has arrived or the request is gone; the answer stops them too. Nothing here
 * reads the body (no `data` listener), so the caller's own piping and back-pressure stay as they are.
 */
export function watchBody(req: IncomingMessage, clock: BodyClock, onTimeout: (err: AppError) => void): () => void {
  if (req.complete || req.readableEnded) return () => undefined;
  let stopped = false;
  let total: NodeJS.Timeout | undefined;
  let idle: NodeJS.Timeout | undefined;
  let lastBytes = req.socket?.bytesRead ?? 0;

  const stop = () => {
    if (stopped) return;
    stopped = true;
    clearTimeout(total);
    clearTimeout(idle);
    req.off('end', stop);
    req.off('close', stop);
  };
  const fire = (err: AppError) => {
    if (stopped) return;
    stop();
    onTimeout(err);
  };

  if (clock.totalMs && clock.totalMs > 0) total = setTimeout(() => fire(bodyTimeoutError(clock.totalMs!)), clock.totalMs);
  if (clock.idleMs && clock.idleMs > 0) {
    const idleMs = clock.idleMs;
    idle = setTimeout(function check() {
      const bytes = req.socket?.bytesRead ?? lastBytes;
      const waitingOnUs = req.readableFlowing === false || req.readableLength > 0;
      if (bytes !== lastBytes || waitingOnUs) {
        lastBytes = bytes;
        idle = setTimeout(check, idleMs);
        return;
      }
      fire(bodyIdleError(idleMs));
    }, idleMs);
  }
  req.once('end', stop);
  req.once('close', stop);
  return stop;
}
