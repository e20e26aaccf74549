import type { StoredFrame } from './stored-frame.js';

/** Called for each frame once it is stored and its place in the upload is final: `frameIndex` is that place. */
export type FrameReady = (frame: StoredFrame, frameIndex: number) => Promise<void>;

/**
 * The frames of one extraction, in their final order. Each is handed on as soon as it is stored, so reading it
 * starts while the later frames are still being decoded.
 */
export class FrameSink {
  readonly frames: StoredFrame[] = [];

  constructor(private readonly ready: FrameReady) {}

  async add(frame: StoredFrame): Promise<void> {
    this.frames.push(frame);
    await this.ready(frame, this.frames.length - 1);
  }
}
