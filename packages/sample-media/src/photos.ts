import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { drawtext, ffmpeg } from './ffmpeg.js';

export interface PhotoSpec {
  name: string;
  lines: string[];
  capturedAt: Date;
  /** EXIF orientation: the pixels are stored turned so that a viewer honouring the tag shows them upright. */
  orientation?: 1 | 3 | 6 | 8;
  width?: number;
  height?: number;
}

export interface GeneratedPhoto {
  path: string;
  name: string;
  lines: string[];
  capturedAt: Date;
  orientation: number;
}

/** EXIF DateTime form ("2024:05:01 10:00:00"), in UTC. */
function exifDate(d: Date): string {
  return d.toISOString().slice(0, 19).replace('T', ' ').replace(/-/g, ':');
}

/** Rotation that, applied to an upright picture, gives pixels which the orientation tag turns upright again. */
const storedRotation: Record<number, number> = { 1: 0, 3: 180, 6: 270, 8: 90 };

/** JPEG photos of text (dark on white), with EXIF DateTimeOriginal and Orientation. */
export async function makePhotoSeries(o: { dir: string; photos: PhotoSpec[] }): Promise<GeneratedPhoto[]> {
  const out: GeneratedPhoto[] = [];
  for (const p of o.photos) {
    const width = p.width ?? 1280;
    const height = p.height ?? 720;
    const png = join(o.dir, `${p.name}.source.png`);
    const filters = p.lines.map((line, i) => drawtext({ text: line, x: 80, y: 80 + i * 110, size: 64, color: '0x1d2330', bold: i === 0 }));
    await ffmpeg(['-f', 'lavfi', '-i', `color=c=white:s=${width}x${height}`, '-vf', filters.join(','), '-frames:v', '1', png]);
    const orientation = p.orientation ?? 1;
    const jpeg = await sharp(png)
      .rotate(storedRotation[orientation])
      .jpeg({ quality: 90 })
      .withMetadata({ orientation })
      .withExifMerge({ IFD0: { Make: 'FrameText', Model: 'sample-media' }, IFD2: { DateTimeOriginal: exifDate(p.capturedAt) } })
      .toBuffer();
    const path = join(o.dir, p.name);
    await writeFile(path, jpeg);
    out.push({ path, name: p.name, lines: p.lines, capturedAt: p.capturedAt, orientation });
  }
  return out;
}
