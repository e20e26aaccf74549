import {
  CREDIT_RATES,
  MAX_FRAMES,
  affordableFrames,
  creditCost,
  fileExtension,
  frameCount,
  isVideoFileName,
  SERVER_ENGINES,
  youtubeVideoId,
  type ImageMimeType,
  type ServerEngine,
  type VideoMimeType,
} from '@frametext/contracts/rules';

/** File sizes as the server's messages show them (the quota's among them). */
export { formatBytes } from '@frametext/contracts/rules';

/*
 * The wizard's rules (product spec sections 5, 8 and 9) as plain functions: no React, no store. The numbers and
 * the frame/credit arithmetic come from @frametext/contracts/rules, the zod-free part of contracts, so the
 * server and the browser count the same way and zod stays out of the bundle.
 */

export const MESSAGES = {
  oneVideo: 'Please upload one .mov or .mp4 at a time.',
  sameType: 'Please ensure multiple uploads are the same file type.',
  photosOnly: 'Ensure multiple uploads are all photos and either .png or .jpeg.',
  nameRequired: 'Please name your upload before uploading.',
  noCredits: 'Not enough credits, purchase some more before uploading.',
  sameLanguages: 'Ensure original and target languages are not equal.',
  tooManyFrames: "Whoa that's a lot of frames. We suggest reducing your framerate or splitting the upload media into multiple parts.",
} as const;

/** What a file picker hands us; a File satisfies it. */
export interface PickedFile {
  name: string;
  type: string;
}

export type MediaSelection =
  | { ok: true; kind: 'video'; mimeType: VideoMimeType }
  | { ok: true; kind: 'photos'; mimeType: ImageMimeType }
  | { ok: false; message: string };

const VIDEO_MIME: Partial<Record<string, VideoMimeType>> = { mp4: 'video/mp4', mov: 'video/quicktime' };
const IMAGE_MIME: Partial<Record<string, ImageMimeType>> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

const looksLikeVideo = (f: PickedFile) => isVideoFileName(f.name) || f.type.startsWith('video/');

/**
 * Sorts a selection into a video or a photo series, or says which rule it breaks. The type comes from the
 * extension (any case): browsers leave File.type empty for .mov on some systems, and the server checks the
 * bytes anyway.
 */
export function classifyFiles(files: readonly PickedFile[]): MediaSelection | null {
  const [first] = files;
  if (first === undefined) return null;
  if (files.some(looksLikeVideo)) {
    const mimeType = VIDEO_MIME[fileExtension(first.name)];
    if (files.length > 1 || mimeType === undefined) return { ok: false, message: MESSAGES.oneVideo };
    return { ok: true, kind: 'video', mimeType };
  }
  const types = new Set(files.map((f) => IMAGE_MIME[fileExtension(f.name)]));
  if (types.has(undefined)) return { ok: false, message: MESSAGES.photosOnly };
  const [mimeType] = types;
  if (types.size > 1 || mimeType === undefined) return { ok: false, message: MESSAGES.sameType };
  return { ok: true, kind: 'photos', mimeType };
}

/** The first rule a click on Upload breaks, or null when it may go ahead. `credits` is null while unknown. */
export function uploadBlocker(input: { uploadName: string; credits: number | null }): string | null {
  if (input.uploadName.trim() === '') return MESSAGES.nameRequired;
  if (input.credits !== null && input.credits <= 0) return MESSAGES.noCredits;
  return null;
}

/** The spec: a watch, embed or short link with an 11-character id; anything else is ignored (null). */
export function videoLinkId(link: string): string | null {
  return link.trim() === '' ? null : youtubeVideoId(link.trim());
}

/** "Capture text every N seconds" below a minute, in minutes from there on. */
export function intervalLabel(seconds: number): string {
  if (seconds < 60) return `Capture text every ${seconds} ${seconds === 1 ? 'second' : 'seconds'}`;
  const minutes = seconds / 60;
  return `Capture text every ${minutes} ${minutes === 1 ? 'minute' : 'minutes'}`;
}

/** Estimated length of a photo series: the span between its earliest and latest capture times, in seconds. */
export function photoSpanSeconds(timestampsMs: readonly number[]): number {
  if (timestampsMs.length === 0) return 0;
  return (Math.max(...timestampsMs) - Math.min(...timestampsMs)) / 1000;
}

export interface CostQuote {
  frames: number;
  credits: number;
  /** Over the 360-frame limit: warn in red and disable Upload. */
  tooManyFrames: boolean;
  /** Set when the balance is known and short of the cost. */
  shortfall: { have: number; need: number; framesCovered: number } | null;
}

/**
 * Frames and credits of what is selected: a video counts ceil(duration / interval) frames (at least 1), photos
 * one frame each; cost = ceil(frames x the engine's rate).
 */
export function quote(input: { frames: number; engine: ServerEngine; credits: number | null }): CostQuote {
  const credits = creditCost(input.frames, input.engine);
  const short = input.credits !== null && input.credits < credits;
  return {
    frames: input.frames,
    credits,
    tooManyFrames: input.frames > MAX_FRAMES,
    shortfall: short ? { have: input.credits as number, need: credits, framesCovered: Math.min(input.frames, affordableFrames(input.credits as number, input.engine)) } : null,
  };
}

export const videoFrames = (durationSeconds: number, intervalSeconds: number) => frameCount(durationSeconds, intervalSeconds);

export { shortfallMessage } from '../../lib/credits/shortfall';

export const framesPerCredit = (engine: ServerEngine) => 1 / CREDIT_RATES[engine];

/** A duration as "1 h 2 min", "3 min 20 s" or "12.5 s". */
export function formatDuration(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return `${h} h ${m} min`;
  return rest ? `${m} min ${rest} s` : `${m} min`;
}

/**
 * The engine the wizard uses: the one the person chose while it is still available, otherwise the best one
 * available now (Cloud AI, the spec's default, then Basic); null while none is.
 */
export function pickEngine(engines: readonly { engine: string; available: boolean }[], chosen: ServerEngine | null): ServerEngine | null {
  const available = (engine: ServerEngine) => engines.some((e) => e.engine === engine && e.available);
  if (chosen && available(chosen)) return chosen;
  return SERVER_ENGINES.find(available) ?? null;
}
