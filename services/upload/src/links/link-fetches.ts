/**
 * The fetches of videos by link running in this process: how many (VIDEO_LINK_CONCURRENCY bounds them), and a way
 * to stop them all when the service stops.
 */
export class LinkFetches {
  private readonly running = new Map<string, { abort: AbortController; done: Promise<void> }>();

  constructor(readonly limit: number) {}

  get active(): number {
    return this.running.size;
  }

  hasRoom(): boolean {
    return this.running.size < this.limit;
  }

  /** Runs `work` in the background under the upload's id; its signal aborts when the service stops. */
  start(uploadId: string, work: (signal: AbortSignal) => Promise<void>): void {
    const abort = new AbortController();
    const done = work(abort.signal).finally(() => this.running.delete(uploadId));
    this.running.set(uploadId, { abort, done });
  }

  /** Stops every fetch and waits until each has recorded how it ended. */
  async stopAll(): Promise<void> {
    const all = [...this.running.values()];
    for (const f of all) f.abort.abort();
    await Promise.allSettled(all.map((f) => f.done));
  }
}
