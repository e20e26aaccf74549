import { formatBytes } from '@frametext/contracts';
import type { YtDlpOutcome } from './yt-dlp.js';

/*
 * Why a video by link could not be fetched, as a code and a sentence the person can act on: the upload ends failed
 * with it (upload.failed.v1: results shows it, billing releases the hold).
 */

export interface LinkFailure {
  code: string;
  reason: string;
}

/** "1 h 5 min", "12 min 30 s", "45 s". */
export function formatDuration(seconds: number): string {
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  if (h > 0) return m > 0 ? `${h} h ${m} min` : `${h} h`;
  if (m > 0) return rest > 0 ? `${m} min ${rest} s` : `${m} min`;
  return `${rest} s`;
}

export const linkFailures = {
  addressRefused: (why: string): LinkFailure => ({ code: 'link/address-refused', reason: `This link cannot be fetched: ${why}` }),
  notFound: (): LinkFailure => ({ code: 'link/not-found', reason: 'Nothing was found at this link (the site answered "not found"): check the link, or whether the video was removed.' }),
  private: (): LinkFailure => ({
    code: 'link/private',
    reason: 'The video at this link is private or needs a sign-in: make it public or unlisted, or download it and upload the file.',
  }),
  tooLong: (seconds: number | null, maxSeconds: number, why: string): LinkFailure => ({
    code: 'link/too-long',
    reason: `The video${seconds ? ` lasts ${formatDuration(seconds)}, which` : ''} is longer than ${formatDuration(maxSeconds)}, the most ${why}. Choose a longer interval, or split the video and upload the parts.`,
  }),
  tooBig: (maxBytes: number): LinkFailure => ({
    code: 'link/too-big',
    reason: `The video is larger than ${formatBytes(maxBytes)}, the most a video by link may be. Download a smaller version and upload it.`,
  }),
  notAVideo: (detail?: string): LinkFailure => ({
    code: 'link/not-a-video',
    reason: `There is no video FrameText can fetch at this link${detail ? ` (${detail})` : ''}: it should lead to a video's page or to an MP4 or MOV file.`,
  }),
  live: (): LinkFailure => ({ code: 'link/live', reason: 'A live stream cannot be fetched: use the link once the stream has ended.' }),
  timedOut: (timeoutSeconds: number): LinkFailure => ({
    code: 'link/timed-out',
    reason: `The video could not be fetched within ${formatDuration(timeoutSeconds)}. Try again later, or download it and upload the file.`,
  }),
  unreachable: (detail: string): LinkFailure => ({ code: 'link/unreachable', reason: `The video could not be fetched: ${detail}` }),
  interrupted: (): LinkFailure => ({ code: 'link/interrupted', reason: 'The video could not be fetched: the fetch was interrupted. Please try again.' }),
};

/** yt-dlp's own error sentence, without its prefix and its request to report the issue upstream. */
function errorDetail(messages: readonly string[]): string {
  const error = messages.find((m) => m.startsWith('ERROR:')) ?? messages.at(-1) ?? 'no reason was given.';
  const text = error
    .replace(/^ERROR:\s*/, '')
    .replace(/^\[[^\]]+\]\s*/, '')
    .replace(/;\s*please report this issue.*$/is, '')
    .replace(/\s*\(caused by .*$/s, '')
    .trim();
  return /[.!?]$/.test(text) ? text : `${text}.`;
}

/** Why a run wrote no file (or failed), from what it said; the proxy's refusal and byte cap come first. */
export function failureOfRun(
  run: YtDlpOutcome,
  facts: { refusal?: string; overByteCap: boolean; maxBytes: number; maxSeconds: number; maxSecondsWhy: string; timeoutSeconds: number },
): LinkFailure {
  const all = run.messages.join('\n');
  if (facts.refusal) return linkFailures.addressRefused(facts.refusal);
  if (facts.overByteCap || /larger than max-filesize/i.test(all)) return linkFailures.tooBig(facts.maxBytes);
  if (run.timedOut) return linkFailures.timedOut(facts.timeoutSeconds);
  if (/is_live|live event|is live|premieres in/i.test(all)) return linkFailures.live();
  if (/does not pass filter/i.test(all)) {
    const seconds = /duration\s*[=:]\s*(\d+(?:\.\d+)?)/i.exec(all)?.[1];
    return linkFailures.tooLong(seconds ? Number(seconds) : null, facts.maxSeconds, facts.maxSecondsWhy);
  }
  if (/HTTP Error 404|HTTP Error 410|Video unavailable|This video (?:is|has been) (?:unavailable|removed)|does not exist/i.test(all)) return linkFailures.notFound();
  if (/private video|sign in|login|log in|members[- ]only|HTTP Error 401|HTTP Error 403|requires authentication|age[- ]restricted/i.test(all)) return linkFailures.private();
  if (/Unsupported URL|No video formats found|Requested format is not available|no suitable formats/i.test(all)) return linkFailures.notAVideo();
  return linkFailures.unreachable(errorDetail(run.messages));
}
