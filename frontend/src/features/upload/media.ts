/*
 * What the browser reads from the chosen media before asking for upload URLs: a video's length (the server needs
 * it to count frames and quote credits) and each photo's capture time.
 */

/** How long to wait for a <video> element to read a file's metadata before giving up. */
export const VIDEO_METADATA_TIMEOUT_MS = 10_000;

export class VideoDurationError extends Error {}

/** Said of a file whose name says video but whose bytes are not an MP4 or QuickTime file (a renamed .txt, say). */
export const NOT_A_VIDEO =
  'This file is not a video your browser can read: its contents are not MP4 or QuickTime (.mov), whatever its name says. Choose the original video file, or save the recording again as .mp4.';

/**
 * MP4 and QuickTime files are a series of boxes: a 4-byte size, then a 4-letter type. A real one opens with one
 * of these types (ftyp in every modern file; the others in older QuickTime files).
 */
const FIRST_BOX_TYPES = new Set(['ftyp', 'moov', 'mdat', 'free', 'skip', 'wide', 'pnot']);

/** Whether the file's first bytes are those of an MP4 or QuickTime file, whatever its name or type says. */
export async function isVideoContainer(file: Blob): Promise<boolean> {
  const head = new Uint8Array(await file.slice(0, 8).arrayBuffer());
  return head.length === 8 && FIRST_BOX_TYPES.has(String.fromCharCode(...head.subarray(4, 8)));
}

/**
 * The video's length in seconds, from a hidden <video> element's loadedmetadata. Rejects with a sentence a
 * person can act on when the file is not a video at all, when the browser cannot decode it (some .mov codecs)
 * or takes too long.
 */
export async function readVideoDuration(file: Blob, timeoutMs = VIDEO_METADATA_TIMEOUT_MS): Promise<number> {
  if (!(await isVideoContainer(file))) throw new VideoDurationError(NOT_A_VIDEO);
  return new Promise((resolve, reject) => {
    const video = document.createElement('video');
    const url = URL.createObjectURL(file);
    const done = (finish: () => void) => {
      clearTimeout(timer);
      video.removeAttribute('src');
      video.load();
      URL.revokeObjectURL(url);
      finish();
    };
    const unreadable = () =>
      new VideoDurationError("Your browser could not read this video's length, so we cannot count its frames. Try converting it to .mp4 (H.264), or open this page in another browser.");
    const timer = setTimeout(() => done(() => reject(unreadable())), timeoutMs);
    video.preload = 'metadata';
    video.muted = true;
    video.onloadedmetadata = () => {
      const seconds = video.duration;
      done(() => (Number.isFinite(seconds) && seconds > 0 ? resolve(seconds) : reject(unreadable())));
    };
    video.onerror = () => done(() => reject(unreadable()));
    video.src = url;
  });
}

/** Capture time of each photo in ms since the epoch: EXIF DateTimeOriginal, else the file's last-modified time. */
export async function readPhotoTimestamps(files: readonly File[]): Promise<number[]> {
  const { default: exifr } = await import('exifr');
  return Promise.all(
    files.map(async (file) => {
      try {
        const tags = (await exifr.parse(file, ['DateTimeOriginal'])) as { DateTimeOriginal?: unknown } | undefined;
        const taken = tags?.DateTimeOriginal;
        if (taken instanceof Date && !Number.isNaN(taken.getTime()) && taken.getTime() >= 0) return Math.round(taken.getTime());
      } catch {
        // No EXIF block (most PNGs, edited images): the last-modified time is the spec's fallback.
      }
      return Math.max(0, Math.round(file.lastModified));
    }),
  );
}

export class PutError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
  }
}

/**
 * PUTs one file to its presigned URL with XMLHttpRequest, because fetch cannot report upload progress.
 * `onProgress` receives the bytes sent so far; `signal` aborts the transfer.
 */
export function putFile(url: string, file: Blob, contentType: string, onProgress: (sent: number) => void, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('PUT', url);
    xhr.setRequestHeader('Content-Type', contentType);
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(file.size);
        resolve();
      } else {
        reject(new PutError(storageMessage(xhr), xhr.status));
      }
    };
    xhr.onerror = () => reject(new PutError('The upload was interrupted. Check your connection and try again.', 0));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    signal?.addEventListener('abort', () => xhr.abort(), { once: true });
    xhr.send(file);
  });
}

/** The storage's own words when it sent JSON ({ error: { message } }), else a sentence with the status. */
function storageMessage(xhr: XMLHttpRequest): string {
  try {
    const body = JSON.parse(xhr.responseText) as { error?: { message?: string } };
    if (body.error?.message) return body.error.message;
  } catch {
    // Not JSON (S3 answers XML): fall through to the status.
  }
  return `The file could not be stored (status ${xhr.status}). Please try again.`;
}
