// What a person watching `frametext upload --wait` or `status --wait` sees: one line per state, rewritten in place on
// a terminal, plain lines (only when something changed) in a pipe or a log.
import { describe, expect, it } from 'vitest';
import { describeStatus, ProgressLine } from '../src/progress.js';

const status = (over: Partial<Parameters<typeof describeStatus>[0]>) => ({ uploadID: 'u1', status: 'uploaded' as const, framesDone: 0, framesTotal: null, failureReason: null, ...over });

describe('describeStatus', () => {
  it('says the frames read of all, the place in the queue, and why an upload failed', () => {
    expect(describeStatus(status({}))).toBe('uploaded, cutting frames');
    expect(describeStatus(status({ uploadsAhead: 2 }))).toBe('uploaded, cutting frames, 2 uploads ahead in the queue');
    expect(describeStatus(status({ status: 'processing', framesDone: 3, framesTotal: 12, uploadsAhead: 1 }))).toBe('processing, 3/12 frames (25%), 1 upload ahead in the queue');
    expect(describeStatus(status({ status: 'processing', framesDone: 0, framesTotal: 0 }))).toBe('processing, 0/0 frames');
    expect(describeStatus(status({ status: 'processed', framesDone: 12, framesTotal: 12 }))).toBe('processed, 12/12 frames');
    expect(describeStatus(status({ status: 'failed', failureReason: 'The video could not be read.' }))).toBe('failed: The video could not be read.');
    expect(describeStatus(status({ status: 'uploading' }))).toBe('uploading');
  });
});

function sink(isTTY: boolean) {
  const out = { text: '', isTTY, write: (t: string | Uint8Array) => (out.text += String(t)) };
  return out;
}

describe('ProgressLine', () => {
  it('on a terminal rewrites one line, and ends it before anything else is printed', () => {
    const out = sink(true);
    const line = new ProgressLine(out);
    line.show('processing, 1/4 frames (25%)');
    line.show('processing, 1/4 frames (25%)');
    line.show('processed, 4/4 frames');
    line.end();
    expect(out.text).toBe('\r\x1b[2Kprocessing, 1/4 frames (25%)\r\x1b[2Kprocessed, 4/4 frames\n');
  });

  it('in a pipe writes a plain line per change, no control characters', () => {
    const out = sink(false);
    const line = new ProgressLine(out);
    for (const text of ['uploaded, cutting frames', 'uploaded, cutting frames', 'processing, 2/4 frames (50%)', 'processed, 4/4 frames']) line.show(text);
    line.end();
    expect(out.text).toBe('uploaded, cutting frames\nprocessing, 2/4 frames (50%)\nprocessed, 4/4 frames\n');
  });
});
