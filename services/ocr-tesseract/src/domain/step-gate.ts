/**
 * Frames of an upload a costly step must have been judged on before the gate decides whether it pays. While it has
 * not decided, at most this many of the upload's frames try the step at once; the others wait for their verdicts
 * (an upload's frames arrive sixteen at a time, and all sixteen would pay for a step that may not pay).
 */
export const FIRST_FRAMES = 4;
/** In an upload where the step does not pay, it runs again on one frame in this many (the picture may change). */
export const RECHECK_EVERY = 20;

/** What a step did on one frame: what it gained (values read, readings kept) and what it lost (readings outdone). */
export interface StepVerdict {
  gained: number;
  lost: number;
}

/** One frame's pass through a gate: whether to run the step, and the report to give back once the frame is read. */
export interface GateTicket {
  run: boolean;
  /**
   * Must be called once, when the frame is done or failed: with what the step gained and lost on it when it ran
   * and could be judged, with nothing otherwise (frames waiting on the gate go on).
   */
  close(verdict?: StepVerdict): void;
}

interface UploadSteps {
  asked: number;
  judged: number;
  gained: number;
  lost: number;
  /** Frames trying the step before the gate has decided. */
  trying: number;
  waiting: (() => void)[];
}

/**
 * Whether a costly step is worth running on an upload's next frame. It runs on the upload's first frames; after
 * them, only while what it gained so far outweighs what it lost, and otherwise on one frame in RECHECK_EVERY.
 * - The seven-segment reader (20-50 ms a frame) gains the values it reads and loses nothing: a video of a charger
 *   screen or a talk stops paying for it after a few frames, a meter's never does.
 * - The mask pass next to the bare pass on a plain background gains the spots where its reading was kept over a
 *   different bare one (or where the bare pass read nothing) and loses those where the bare reading won: on a phone
 *   film of a dark charger screen it wins nearly every value, on a blue instrument screen it mostly loses, and the
 *   bare pass alone reads it better, in about 70 % of the Tesseract time.
 * Remembers the last `max` uploads.
 */
export class StepGate {
  private readonly uploads = new Map<string, UploadSteps>();

  constructor(private readonly max = 64) {}

  async enter(uploadId: string): Promise<GateTicket> {
    let steps = this.steps(uploadId);
    const number = ++steps.asked;
    while (steps.judged < FIRST_FRAMES && steps.trying >= FIRST_FRAMES - steps.judged) {
      await new Promise<void>((resolve) => steps.waiting.push(resolve));
      steps = this.steps(uploadId);
    }
    const trial = steps.judged < FIRST_FRAMES;
    if (trial) steps.trying++;
    const run = trial || steps.gained > steps.lost || number % RECHECK_EVERY === 0;
    let closed = false;
    return {
      run,
      close: (verdict) => {
        if (closed) return;
        closed = true;
        if (trial) steps.trying--;
        if (verdict && run) {
          steps.judged++;
          steps.gained += verdict.gained;
          steps.lost += verdict.lost;
        }
        for (const go of steps.waiting.splice(0)) go();
      },
    };
  }

  private steps(uploadId: string): UploadSteps {
    const steps = this.uploads.get(uploadId) ?? { asked: 0, judged: 0, gained: 0, lost: 0, trying: 0, waiting: [] };
    this.uploads.delete(uploadId);
    this.uploads.set(uploadId, steps);
    while (this.uploads.size > this.max) {
      const [oldest, old] = this.uploads.entries().next().value!;
      this.uploads.delete(oldest);
      // Frames waiting on a forgotten upload start it over.
      for (const go of old.waiting.splice(0)) go();
    }
    return steps;
  }
}
