import type { UploadStatusResponse } from '@frametext/contracts';

/** An upload's status as the API answers GET /checkUploadStatus/:id. */
export type UploadStatus = UploadStatusResponse['data'];

/** One line saying where an upload is: its status, frames read of all, and its place in the queue. */
export function describeStatus(s: UploadStatus): string {
  if (s.status === 'failed') return `failed: ${s.failureReason ?? 'FrameText gave no reason'}`;
  const frames = s.framesTotal === null ? undefined : `${s.framesDone}/${s.framesTotal} frames`;
  if (s.status === 'processed') return `processed${frames ? `, ${frames}` : ''}`;
  const parts: string[] = [s.status];
  if (frames) parts.push(s.framesTotal ? `${frames} (${Math.floor((100 * s.framesDone) / s.framesTotal)}%)` : frames);
  else if (s.status !== 'uploading') parts.push('cutting frames');
  if (s.uploadsAhead) parts.push(`${s.uploadsAhead} upload${s.uploadsAhead === 1 ? '' : 's'} ahead in the queue`);
  return parts.join(', ');
}

export interface Output {
  write(text: string | Uint8Array): unknown;
  isTTY?: boolean;
}

/**
 * Progress on a terminal: one line rewritten in place on a TTY; on a pipe or a log file, a plain line each time the
 * text changes (no control characters in logs).
 */
export class ProgressLine {
  private last: string | undefined;
  constructor(private readonly out: Output) {}

  show(text: string): void {
    if (text === this.last) return;
    this.last = text;
    if (this.out.isTTY) this.out.write(`\r\x1b[2K${text}`);
    else this.out.write(`${text}\n`);
  }

  /** Ends the line being rewritten, so what is printed next starts on its own line. */
  end(): void {
    if (this.out.isTTY && this.last !== undefined) this.out.write('\n');
    this.last = undefined;
  }
}
