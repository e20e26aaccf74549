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

interface Pending {
  image: Buffer;
  lang: string;
  budget?: CpuBudget;
  beforeRead?: () => Promise<void>;
  resolve(tsv: string): void;
  reject(err: unknown): void;
}

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
      this.pending.push({ image, lang, budget, beforeRead, resolve, reject });
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
      const lane = free.find((l) => l.process?.alive && l.process.lang === next!.lang) ?? free[0];
      if (!lane) return;
      this.pending.shift();
      lane.busy = true;
      void this.run(lane, next).finally(() => {
        lane.busy = false;
        this.schedule();
      });
    }
  }

  private async run(lane: Lane, { image, lang, budget, beforeRead, resolve, reject }: Pending): Promise<void> {
    try {
      // A frame whose budget its other reads spent while this image waited is not read further.
      if (budget?.exhausted) throw new TesseractError('budget', `the frame used its ${budget.limitMs} ms of Tesseract CPU time`);
      await beforeRead?.();
      const process = await this.processFor(lane, lang);
      this.counts.images++;
      resolve(await process.read(image, budget));
    } catch (err) {
      reject(err);
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
