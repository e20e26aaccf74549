/** What the kit needs of sharp: its libvips thread setting. */
export interface SharpThreads {
  concurrency(threads?: number): number;
}

/**
 * Gives sharp's libvips the worker's WORKER_THREADS (workerConfigShape) per image: the cores its CPU quota allows. The
 * workers that decode images (frame-extraction, the OCR workers) call it with the sharp they load; the kit does not
 * depend on sharp, so the services that never touch an image do not ship it.
 */
export function setSharpThreads(sharp: SharpThreads, config: { WORKER_THREADS: number }): void {
  sharp.concurrency(config.WORKER_THREADS);
}
