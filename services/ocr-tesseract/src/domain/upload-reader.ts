import type { MediaContent } from '@frametext/contracts';
import { CpuBudget } from '../data/cpu-budget.js';
import { FrameMemories } from './frame-memory.js';
import { readsWithPpOcr } from './ppocr/languages.js';
import type { PpOcrReader } from './ppocr/reader.js';
import { recognizeFrame, wantsSegmentReader, type Candidate, type FrameText, type RecognizeOptions } from './recognize.js';
import { StepGate, type GateTicket } from './step-gate.js';

/** Reads one image with a Tesseract model (`lang`), its CPU time spent from the frame's `budget`: the worker's pool, or a stand-in in tests. */
export type ModelRunner = (image: Buffer, lang: string, budget?: CpuBudget, beforeRead?: () => Promise<void>) => Promise<string>;

export interface FrameOfUpload {
  uploadId: string;
  mediaContent?: MediaContent;
  /** The upload's original language as it asked (its frames are remembered per language). */
  originalLanguage: string | null;
  /** The Tesseract model this frame is read with (a promise: the worker may still be asking Tesseract which it has). */
  model: Promise<string> | string;
  /** Runs before each Tesseract read of the frame, when its turn comes: a throw (the upload was deleted) stops the frame. */
  beforeRead?: () => Promise<void>;
  /** Whether the frame was cut from a video (a small one is read enlarged). */
  fromVideo?: boolean;
}

/**
 * The Basic engine as an upload sees it: each frame is read with what the worker knows of its upload so far, the
 * last readings (text where a frame did not change is carried over rather than read again) and the verdicts of the
 * costly steps (whether the upload's frames show seven-segment digits, whether the mask pass reads its plain screens
 * better than the bare pass alone, whether the bare pass adds text to the mask's over its pictures). The worker and the benchmarks read through this, so they read alike.
 */
export class UploadReader {
  private readonly memories = new FrameMemories<Candidate>();
  private readonly segmentGate = new StepGate();
  private readonly maskGate = new StepGate();
  private readonly bareGate = new StepGate();

  constructor(
    private readonly options: RecognizeOptions,
    private readonly run: ModelRunner,
    /** Reads the captions of uploads in the languages PP-OCR is for (ppocr/languages.ts); without it, Tesseract reads all. */
    private readonly ppocr?: PpOcrReader,
  ) {}

  /** A frame's CPU budget, which all of its reads spend from; a read that finds it spent fails (kind `budget`). */
  private budget(): CpuBudget | undefined {
    return this.options.frameCpuBudgetMs ? new CpuBudget(this.options.frameCpuBudgetMs) : undefined;
  }

  /**
   * Call it as the frame arrives, with the image still being read: the upload's memory is claimed before anything
   * waits, so its first frame to arrive is the one that reads first.
   */
  async read(image: Promise<Buffer>, frame: FrameOfUpload): Promise<FrameText> {
    // Chinese captions: PP-OCR reads them whole on every frame (no memory, no passes to judge).
    if (this.ppocr && readsWithPpOcr(frame.originalLanguage, frame.mediaContent)) return this.ppocr.read(await image, this.budget(), frame.beforeRead);
    const memory = this.memories.of(`${frame.uploadId}:${frame.originalLanguage ?? ''}`);
    let segments: GateTicket | undefined;
    let mask: GateTicket | undefined;
    let bare: GateTicket | undefined;
    let text: FrameText | undefined;
    const budget = this.budget();
    try {
      const lang = await frame.model;
      if (wantsSegmentReader(frame.mediaContent)) segments = await this.segmentGate.enter(frame.uploadId);
      text = await recognizeFrame(await image, this.options, (pgm) => this.run(pgm, lang, budget, frame.beforeRead), frame.mediaContent, {
        memory,
        readSegments: segments?.run ?? false,
        segmentsRead: (values) => segments?.close({ gained: values, lost: 0 }),
        readMask: async () => (mask = await this.maskGate.enter(frame.uploadId)).run,
        readBare: async () => (bare = await this.bareGate.enter(frame.uploadId)).run,
        fromVideo: frame.fromVideo,
      });
      return text;
    } finally {
      memory.settle();
      segments?.close();
      mask?.close(text?.maskVerdicts);
      bare?.close(text?.bareVerdicts);
    }
  }
}
