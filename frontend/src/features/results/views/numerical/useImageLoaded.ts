import { useEffect, useState } from 'react';

/**
 * Whether the picture at `url` has loaded (or failed: then there is nothing more to wait for). The browser's cache
 * serves the frame's own <img> from the same request.
 */
export function useImageLoaded(url: string | null): boolean {
  const [done, setDone] = useState<string | null>(null);
  useEffect(() => {
    if (!url) return;
    let current = true;
    const image = new Image();
    const finish = () => {
      if (current) setDone(url);
    };
    image.onload = finish;
    image.onerror = finish;
    image.src = url;
    if (image.complete && image.naturalWidth > 0) finish();
    return () => {
      current = false;
    };
  }, [url]);
  return url === null || done === url;
}
