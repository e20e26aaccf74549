import { useEffect, useRef, useState } from 'react';
import type { Rect } from '@frametext/text-analysis';

interface Props {
  imageUrl: string | null;
  /** The box's coordinate space; null when it is the image's own pixels. */
  space: { width: number; height: number } | null;
  /** The reading's box, in `space` coordinates; null shows the whole picture. */
  box: Rect | null;
  /** Describes the crop, e.g. "Frame 3 (0:02) around Speed Block". */
  label: string;
}

/** Text this high (CSS pixels) reads comfortably; smaller text is scaled up to it, at most 4 times. */
const READABLE_TEXT_HEIGHT = 40;
const MAX_SCALE = 4;

/** The crop of a frame around a reading: the box with room around it, at a readable scale. */
export function cropRect(box: Rect, image: { width: number; height: number }, scale: { x: number; y: number }): Rect {
  const pad = Math.max(8, 0.6 * box.h * scale.y);
  const x = Math.max(0, box.x * scale.x - pad);
  const y = Math.max(0, box.y * scale.y - pad);
  const right = Math.min(image.width, (box.x + box.w) * scale.x + pad);
  const bottom = Math.min(image.height, (box.y + box.h) * scale.y + pad);
  return { x, y, w: Math.max(1, right - x), h: Math.max(1, bottom - y) };
}

/**
 * Cuts the reading's box (padded) out of its frame's picture onto a canvas, or draws the whole picture when there is
 * no box. The picture is the one the view already loads, so it usually comes from the browser's cache.
 */
export function FrameCrop({ imageUrl, space, box, label }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const failed = failedUrl !== null && failedUrl === imageUrl;

  useEffect(() => {
    if (!imageUrl) return;
    let cancelled = false;
    const image = new Image();
    image.onload = () => {
      const canvas = canvasRef.current;
      const ctx = canvas?.getContext('2d');
      if (cancelled || !canvas || !ctx) return;
      const natural = { width: image.naturalWidth, height: image.naturalHeight };
      const scale = space ? { x: natural.width / space.width, y: natural.height / space.height } : { x: 1, y: 1 };
      const crop = box ? cropRect(box, natural, scale) : { x: 0, y: 0, w: natural.width, h: natural.height };
      const zoom = box ? Math.min(MAX_SCALE, Math.max(1, READABLE_TEXT_HEIGHT / Math.max(1, box.h * scale.y))) : 1;
      const ratio = window.devicePixelRatio || 1;
      canvas.width = Math.round(crop.w * zoom * ratio);
      canvas.height = Math.round(crop.h * zoom * ratio);
      canvas.style.width = `${Math.round(crop.w * zoom)}px`;
      ctx.imageSmoothingQuality = 'high';
      ctx.drawImage(image, crop.x, crop.y, crop.w, crop.h, 0, 0, canvas.width, canvas.height);
      canvas.dataset.drawn = 'true';
    };
    image.onerror = () => {
      if (!cancelled) setFailedUrl(imageUrl);
    };
    image.src = imageUrl;
    return () => {
      cancelled = true;
    };
  }, [imageUrl, space, box]);

  if (!imageUrl || failed) return <p className="muted small">{imageUrl ? 'The picture could not be loaded.' : 'No picture for this frame.'}</p>;
  return <canvas ref={canvasRef} className="numerical-proof__crop" role="img" aria-label={label} />;
}
