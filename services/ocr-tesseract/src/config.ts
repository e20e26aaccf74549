import { z } from 'zod';
import { servicePort } from '@frametext/contracts';
import { cpuBudget, loadConfigOrExit, serviceConfig, workerConfigShape } from '@frametext/service-kit';

/**
 * Frames in hand per Tesseract process: enough that a lane finds its next image ready while the last one's frame
 * is decoded and its results published, and that an upload's frames held back by its StepGate (until its first
 * frames are judged) leave others to read.
 */
export const FRAMES_IN_HAND_PER_LANE = 8;

export const WHITE_MASK_MODES = ['auto', 'always', 'never'] as const;
export type WhiteMaskMode = (typeof WHITE_MASK_MODES)[number];

/**
 * ocr-tesseract settings; every key has a default and is read from the environment variable of the same name.
 * BUS_PREFETCH (shared setting) defaults to FRAMES_IN_HAND_PER_LANE frames per Tesseract process here.
 */
export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(servicePort('ocr-tesseract')),
  BUS_PREFETCH: z.coerce.number().int().min(1).max(1000).optional(),
  ...workerConfigShape,
  /** Tesseract processes running at once (each single-threaded): one per core the container's CPU quota allows. */
  OCR_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(cpuBudget()),
  /** A Tesseract read of one image longer than this is killed (with its process group); a frame that times out twice completes with a failure reason. */
  OCR_TIMEOUT_MS: z.coerce.number().int().min(100).default(60_000),
  /** Largest TSV output accepted for one image; more is treated as a failed read. */
  OCR_MAX_OUTPUT_BYTES: z.coerce.number().int().min(1024).default(8 * 1024 * 1024),
  TESSERACT_PATH: z.string().min(1).default('tesseract'),
  /**
   * Default Tesseract model(s), e.g. `eng` or `eng+deu`: for uploads whose original language is Auto or has no model
   * installed here. Others are read with their language's model (@frametext/contracts' language list).
   */
  OCR_LANG: z.string().regex(/^[a-z_]+(\+[a-z_]+)*$/i, 'languages are like eng or eng+deu').default('eng'),
  /**
   * Second pass on the near-white mask: `auto` runs it when near-white pixels cover a small share of the frame
   * (white captions and numbers over a picture), `always` on every frame, `never` not at all.
   */
  OCR_WHITE_MASK: z.enum(WHITE_MASK_MODES).default('auto'),
  /** A pixel is near-white when each of its channels is at least this value (0-255). */
  OCR_WHITE_THRESHOLD: z.coerce.number().int().min(1).max(255).default(200),
  /** Words below this confidence (0-100) are dropped: Tesseract's guesses at textures. */
  OCR_MIN_WORD_CONFIDENCE: z.coerce.number().min(0).max(100).default(30),
  /** Frames with more pixels than this are refused as unreadable (decompression bombs). */
  OCR_MAX_PIXELS: z.coerce.number().int().min(1).default(50_000_000),
  /**
   * Larger frames are scaled down to this many pixels before they are read: 16 M holds a 300 dpi A4 page or a phone's
   * 4:3 photo whole; more only makes Tesseract slower on finer print than it needs.
   */
  OCR_READ_MAX_PIXELS: z.coerce.number().int().min(100_000).default(16_000_000),
  /**
   * CPU time (ms) one frame's Tesseract reads may use in all. A frame that reaches it is stopped and completes without
   * text, and is charged: it was read to its limit (docs/operations.md).
   */
  OCR_FRAME_CPU_BUDGET_MS: z.coerce.number().int().min(100).default(20_000),
}).transform((c) => ({ ...c, BUS_PREFETCH: c.BUS_PREFETCH ?? c.OCR_CONCURRENCY * FRAMES_IN_HAND_PER_LANE }));

export type Config = z.infer<typeof configSchema>;

export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  return loadConfigOrExit('ocr-tesseract', configSchema, env);
}

/**
 * The environment Tesseract runs with: only what it needs. OMP_THREAD_LIMIT=1 because one single-threaded
 * process per core is several times faster than Tesseract's own OpenMP threads.
 */
export function tesseractEnv(env: Record<string, string | undefined> = process.env): Record<string, string> {
  return {
    PATH: env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    OMP_THREAD_LIMIT: '1',
    ...(env.TESSDATA_PREFIX ? { TESSDATA_PREFIX: env.TESSDATA_PREFIX } : {}),
  };
}
