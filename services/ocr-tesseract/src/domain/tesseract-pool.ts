import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTesseract, TesseractError, type TesseractOptions } from './tesseract.js';
import { splitPages } from './tsv.js';

export interface TesseractPoolOptions {
  /** Tesseract processes at once (each single-threaded): one per core. */
  lanes: number;
  /** Images one process reads, at most. */
  maxBatch: number;
  /** How long an idle lane waits for more images before it starts with fewer than maxBatch. */
  windowMs: number;
  /** Where each batch's folder is made; the system's temporary folder by default. */
  scratchDir?: string;
}

interface Pending {
  image: Buffer;
  lang: string;
  resolve(tsv: string): void;
  reject(err: unknown): void;
}

/**
 * Runs Tesseract for every image the worker reads, several images per process. Starting Tesseract and loading its
 * model costs about 70 ms, as much as reading a plain 720p frame; a process that reads a list of images pays it once
 * for all of them. Each lane is one process at a time; a free lane takes up to `maxBatch` waiting images of one
 * language (waiting `windowMs` for more when fewer are there), writes them to a folder of its own and has Tesseract read
 * the list. Each image's promise settles with its own page of the TSV. When a batch fails, its images are read again
 * one by one, so one bad image fails alone.
 */
export class TesseractPool {
  private readonly pending: Pending[] = [];
  private idle: number;
  private timer: NodeJS.Timeout | undefined;
  /** An idle lane has waited its window: it starts with what is there. */
  private windowOver = false;
  /** Tesseract processes run and images they read so far (for tests and the benchmark). */
  readonly counts = { processes: 0, images: 0 };

  constructor(
    private readonly tesseract: TesseractOptions,
    private readonly opts: TesseractPoolOptions,
  ) {
    this.idle = opts.lanes;
  }

  /** The TSV of one image (PGM or any format Leptonica reads), read with the `lang` model. */
  read(image: Buffer, lang: string = this.tesseract.lang): Promise<string> {
    return new Promise((resolve, reject) => {
      this.pending.push({ image, lang, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    while (this.idle > 0 && this.pending.length > 0) {
      if (this.pending.length < this.opts.maxBatch && this.opts.windowMs > 0 && !this.windowOver) {
        this.timer ??= setTimeout(() => {
          this.timer = undefined;
          this.windowOver = true;
          this.schedule();
        }, this.opts.windowMs);
        return;
      }
      clearTimeout(this.timer);
      this.timer = undefined;
      this.windowOver = false;
      const batch = this.take();
      this.idle--;
      void this.run(batch).finally(() => {
        this.idle++;
        this.schedule();
      });
    }
  }

  private counted(images: number): void {
    this.counts.processes++;
    this.counts.images += images;
  }

  /** Up to maxBatch waiting images of the first one's language, in arrival order. */
  private take(): Pending[] {
    const lang = this.pending[0]!.lang;
    const batch: Pending[] = [];
    for (let i = 0; i < this.pending.length && batch.length < this.opts.maxBatch; ) {
      if (this.pending[i]!.lang === lang) batch.push(...this.pending.splice(i, 1));
      else i++;
    }
    return batch;
  }

  private async run(batch: Pending[]): Promise<void> {
    const lang = batch[0]!.lang;
    if (batch.length === 1) {
      const [one] = batch;
      await runTesseract(one!.image, { ...this.tesseract, lang }).then(one!.resolve, one!.reject);
      this.counted(1);
      return;
    }
    let dir: string | undefined;
    try {
      dir = await mkdtemp(join(this.opts.scratchDir ?? tmpdir(), 'frametext-tesseract-'));
      const files = batch.map((_, i) => join(dir!, `${i}.pnm`));
      const listFile = join(dir, 'list.txt');
      await Promise.all(batch.map((p, i) => writeFile(files[i]!, p.image)));
      await writeFile(listFile, `${files.join('\n')}\n`);
      const tsv = await runTesseract({ listFile }, { ...this.tesseract, lang, timeoutMs: this.tesseract.timeoutMs * batch.length, maxOutputBytes: this.tesseract.maxOutputBytes * batch.length });
      this.counted(batch.length);
      splitPages(tsv, batch.length).forEach((page, i) => batch[i]!.resolve(page));
    } catch (err) {
      if (!(err instanceof TesseractError) || err.kind === 'missing') {
        for (const p of batch) p.reject(err);
        return;
      }
      // One image may be what failed the process: read each alone, so only that one fails.
      for (const p of batch) {
        await runTesseract(p.image, { ...this.tesseract, lang }).then(p.resolve, p.reject);
        this.counted(1);
      }
    } finally {
      if (dir) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    }
  }
}
