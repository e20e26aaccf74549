import type { CpuBudget } from './cpu-budget.js';
import { TesseractError, type TesseractOptions } from './tesseract.js';
import { TesseractProcess } from './tesseract-process.js';

export interface TesseractPoolOptions {
  /** Tesseract processes at once (each single-threaded): one per core. */
  lanes: number;
  /** Where each process's folder of images is made; the system's temporary folder by default. */
  scratchDir?: string;
}

/** A process is replaced after this many images, so whatever it holds on to is let go now and then. */
const IMAGES_PER_PROCESS = 1_000;

interface Waiting {
  beforeRead?: () => Promise<void>;
  reject(err: unknown): void;
}

/** An image for Tesseract. */
interface PendingRead extends Waiting {
  kind: 'read';
  image: Buffer;
  lang: string;
  budget?: CpuBudget;
  resolve(tsv: string): void;
}

/** Work of the worker's own that takes a lane in turn (runInLane): it settles its own promise. */
interface PendingJob extends Waiting {
  kind: 'job';
  run(): Promise<void>;
}

type Pending = PendingRead | PendingJob;

interface Lane {
  process?: TesseractProcess;
  busy: boolean;
}

/**
 * Runs Tesseract for every image the worker reads: one lane per core, each a Tesseract process that stays up and
 * reads one image after another (TesseractProcess), so no image pays for starting Tesseract and none waits for a
 * batch. A free lane takes the longest-waiting image, preferring a lane whose process has that image's language
 * loaded; a lane whose process has another language, has failed or has read IMAGES_PER_PROCESS images starts a new
 * one. An image that fails or kills its process fails alone: the lane's next image gets a new process.
 */
export class TesseractPool {
  private readonly pending: Pending[] = [];
  private readonly lanes: Lane[];
  /** Tesseract processes started and images read so far (for tests and the benchmark). */
  readonly counts = { processes: 0, images: 0 };

  constructor(
    private readonly tesseract: TesseractOptions,
    private readonly opts: TesseractPoolOptions,
  ) {
    this.lanes = Array.from({ length: opts.lanes }, () => ({ busy: false }));
  }

  /**
   * The TSV of one image (PGM, PPM or any format Leptonica reads), read with the `lang` model, its CPU time spent from
   * `budget` (TesseractProcess.read). `beforeRead` runs when a lane takes the image, just before it is read: a throw
   * (its upload was deleted meanwhile) fails this image unread.
   */
  read(image: Buffer, lang: string = this.tesseract.lang, budget?: CpuBudget, beforeRead?: () => Promise<void>): Promise<string> {
    return new Promise((resolve, reject) => {
      this.pending.push({ kind: 'read', image, lang, budget, beforeRead, resolve, reject });
      this.schedule();
    });
  }

  /**
   * Runs `job` (the worker's own reading: PP-OCR's, src/domain/ppocr/reader.ts) in a lane, in turn with the images
   * waiting, so that it and the Tesseract processes together keep to one read per core. `beforeRead` runs when its
   * turn comes; a throw fails it unrun.
   */
  runInLane<T>(job: () => Promise<T>, beforeRead?: () => Promise<void>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.pending.push({ kind: 'job', beforeRead, reject, run: async () => resolve(await job()) });
      this.schedule();
    });
  }

  /** Ends every lane's process once it has read what it was given. */
  async close(): Promise<void> {
    await Promise.all(this.lanes.map((lane) => lane.process?.end()));
  }

  private schedule(): void {
    for (let next = this.pending[0]; next; next = this.pending[0]) {
      const free = this.lanes.filter((l) => !l.busy);
      const lang = next.kind === 'read' ? next.lang : undefined;
      const lane = free.find((l) => l.process?.alive && l.process.lang === lang) ?? free[0];
      if (!lane) return;
      this.pending.shift();
      lane.busy = true;
      void this.run(lane, next).finally(() => {
        lane.busy = false;
        this.schedule();
      });
    }
  }

  private async run(lane: Lane, pending: Pending): Promise<void> {
    try {
      if (pending.kind === 'job') {
        await pending.beforeRead?.();
        return await pending.run();
      }
      const { image, lang, budget, beforeRead, resolve } = pending;
      // A frame whose budget its other reads spent while this image waited is not read further.
      if (budget?.exhausted) throw new TesseractError('budget', `the frame used its ${budget.limitMs} ms of Tesseract CPU time`);
      await beforeRead?.();
      const process = await this.processFor(lane, lang);
      this.counts.images++;
      resolve(await process.read(image, budget));
    } catch (err) {
      pending.reject(err);
    }
  }

  private async processFor(lane: Lane, lang: string): Promise<TesseractProcess> {
    const current = lane.process;
    if (current?.alive && current.lang === lang && current.images < IMAGES_PER_PROCESS) return current;
    void current?.end();
    lane.process = await TesseractProcess.start({ ...this.tesseract, lang }, this.opts.scratchDir);
    this.counts.processes++;
    return lane.process;
  }
}
