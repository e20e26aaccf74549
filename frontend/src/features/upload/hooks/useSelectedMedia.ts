import { useEffect, useState } from 'react';
import { classifyFiles, type MediaSelection } from '../rules';
import { readPhotoTimestamps, readVideoDuration } from '../media';

export interface SelectedMedia {
  selection: Extract<MediaSelection, { ok: true }> | null;
  /** A video's length in seconds once read. */
  duration: number | null;
  /** Photo capture times in ms, one per file, once read. */
  timestamps: number[] | null;
  /** Why the video's length could not be read, in words. */
  problem: string | null;
  reading: boolean;
}

interface ReadResult {
  files: readonly File[];
  duration: number | null;
  timestamps: number[] | null;
  problem: string | null;
}

/** Reads what the upload needs from the chosen files: a video's length, or each photo's capture time. */
export function useSelectedMedia(files: readonly File[]): SelectedMedia {
  const [result, setResult] = useState<ReadResult | null>(null);
  const classified = classifyFiles(files);
  const selection = classified?.ok ? classified : null;
  const kind = selection?.kind ?? null;

  useEffect(() => {
    if (kind === null) return;
    let current = true;
    const settle = (r: Omit<ReadResult, 'files'>) => current && setResult({ files, ...r });
    const [video] = files;
    if (kind === 'video' && video) {
      readVideoDuration(video).then(
        (duration) => settle({ duration, timestamps: null, problem: null }),
        (e: unknown) => settle({ duration: null, timestamps: null, problem: e instanceof Error ? e.message : String(e) }),
      );
    } else {
      readPhotoTimestamps(files).then(
        (timestamps) => settle({ duration: null, timestamps, problem: null }),
        () => settle({ duration: null, timestamps: files.map((f) => f.lastModified), problem: null }),
      );
    }
    return () => {
      current = false;
    };
  }, [files, kind]);

  // A result belongs to the files it was read from; a newer choice is "reading" until its own result lands.
  const fresh = result && result.files === files ? result : null;
  return {
    selection,
    duration: fresh?.duration ?? null,
    timestamps: fresh?.timestamps ?? null,
    problem: fresh?.problem ?? null,
    reading: selection !== null && fresh === null,
  };
}
