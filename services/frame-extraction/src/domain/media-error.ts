/**
 * The media itself is at fault (corrupt, empty, no video track, absurd dimensions, too slow to decode): retrying
 * cannot help, so the upload fails with `reason`, a sentence shown to the person who uploaded it.
 */
export class MediaError extends Error {
  constructor(readonly reason: string, options: { cause?: unknown } = {}) {
    super(reason, options);
    this.name = 'MediaError';
  }
}
