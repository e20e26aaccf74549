import { useEffect, useState } from 'react';
import type { Space } from '../../components/FrameStage';
import type { ResultsFrame } from '../../model';

/**
 * The coordinate space of a frame's boxes: its own `space` when it has one (local results), otherwise its picture's
 * pixel size, read once the picture loads (null until then, or when the frame has no picture).
 */
export function useFrameSpace(frame: ResultsFrame): Space | null {
  const [loaded, setLoaded] = useState<{ url: string; width: number; height: number } | null>(null);
  const url = frame.space ? null : frame.imageUrl;

  useEffect(() => {
    if (!url) return;
    let live = true;
    const image = new Image();
    image.onload = () => {
      if (live && image.naturalWidth > 0) setLoaded({ url, width: image.naturalWidth, height: image.naturalHeight });
    };
    image.src = url;
    return () => {
      live = false;
    };
  }, [url]);

  if (frame.space) return frame.space;
  return loaded && loaded.url === url ? { width: loaded.width, height: loaded.height } : null;
}
