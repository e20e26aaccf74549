import { useCallback, useEffect, useState } from 'react';
import type { ResultsView } from '../../model';
import type { Space } from '@frametext/text-analysis';

/** Reads an image's pixel size without showing it. */
function imageSize(url: string): Promise<Space> {
  return new Promise((resolve, reject) => {
    const img = new Image();
    img.onload = () => resolve({ width: img.naturalWidth, height: img.naturalHeight });
    img.onerror = () => reject(new Error(`could not read ${url}`));
    img.src = url;
  });
}

/**
 * Each frame's coordinate space in pixels, which a normalised box needs to be placed on it. Local frames carry
 * theirs; otherwise the image's own size is read: once for a video (all its frames share one size), once per
 * picture for a photo series. Sizes arrive together, so the readings are computed once, not once per image.
 */
export function useFrameSpaces(view: ResultsView): (index: number) => Space | null {
  const [sizes, setSizes] = useState<ReadonlyMap<string, Space>>(new Map());

  useEffect(() => {
    const unknown = view.frames.filter((f) => !f.space && f.imageUrl).map((f) => f.imageUrl!);
    const wanted = view.format === 'Video' ? unknown.slice(0, 1) : [...new Set(unknown)];
    if (wanted.length === 0) return;
    let live = true;
    void Promise.allSettled(wanted.map(imageSize)).then((results) => {
      if (!live) return;
      const next = new Map<string, Space>();
      results.forEach((r, i) => {
        if (r.status === 'fulfilled' && r.value.width > 0) next.set(wanted[i]!, r.value);
      });
      setSizes(next);
    });
    return () => {
      live = false;
    };
  }, [view]);

  return useCallback(
    (index: number) => {
      const frame = view.frames[index];
      if (!frame) return null;
      if (frame.space) return frame.space;
      const own = frame.imageUrl ? sizes.get(frame.imageUrl) : undefined;
      if (own) return own;
      return view.format === 'Video' ? (sizes.values().next().value ?? null) : null;
    },
    [view, sizes],
  );
}
