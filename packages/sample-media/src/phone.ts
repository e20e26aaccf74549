import { join } from 'node:path';
import { ffmpeg } from './ffmpeg.js';
import type { GeneratedVideo } from './videos.js';

export interface PhoneFilming {
  dir: string;
  /** File name inside dir (default: the source's name with `-phone`). */
  name?: string;
  /** Output size: a phone's low-resolution recording (default 960x540). */
  width?: number;
  height?: number;
  /** x264's constant rate factor: higher is harsher compression (default 36; a phone's clip after a messenger). */
  crf?: number;
}

/**
 * The same screen filmed by a hand-held phone: a little tilted and off-square (perspective), shaking slowly,
 * slightly out of focus, with the moiré of a camera filming a pixel grid, the flicker of a screen's refresh against
 * the camera's, sensor noise, then scaled down and compressed hard. What is on screen, and when, is the source's
 * truth. Made in two ffmpeg runs: the moiré pattern once, then the filming.
 */
export async function filmWithPhone(source: GeneratedVideo, o: PhoneFilming): Promise<GeneratedVideo> {
  const width = o.width ?? 960;
  const height = o.height ?? 540;
  const base = source.path.slice(source.path.lastIndexOf('/') + 1).replace(/\.[^.]+$/, '');
  const path = join(o.dir, o.name ?? `${base}-phone.mp4`);
  const { width: w, height: h } = source;
  // Two fine gratings at slightly different angles and pitches beat into broad bands, as a pixel grid does on a sensor.
  const pattern = join(o.dir, `${base}-moire.png`);
  await ffmpeg(['-f', 'lavfi', '-i', `nullsrc=s=${w}x${h},format=gray,geq=lum='128+40*sin(X*1.71+Y*0.21)*sin(X*0.19-Y*1.63)'`, '-frames:v', '1', pattern]);
  const filming = [
    // The screen seen from a little below and to the left: its corners move inwards by a few percent, unevenly.
    `[0:v]perspective=x0=W*0.05:y0=H*0.07:x1=W*0.97:y1=H*0.02:x2=W*0.02:y2=H*0.96:x3=W*0.94:y3=H*0.99:sense=destination:interpolation=linear[tilted]`,
    '[1:v]format=gray,format=yuv420p[grating]',
    '[tilted][grating]blend=all_mode=grainmerge:all_opacity=0.3:shortest=1[moire]',
    // A slow hand shake (a few pixels), then focus, refresh flicker and sensor noise.
    `[moire]pad=iw+16:ih+16:8:8,crop=${w}:${h}:x='8+6*sin(2*PI*t*0.43)':y='8+5*sin(2*PI*t*0.61+1)'[shaken]`,
    `[shaken]gblur=sigma=1.1,eq=brightness='0.035*sin(2*PI*t*2.9)':contrast=0.9:eval=frame,noise=alls=16:allf=t+u,scale=${width}:${height}:flags=bilinear[out]`,
  ].join(';');
  await ffmpeg([
    '-i', source.path,
    '-loop', '1', '-i', pattern,
    '-filter_complex', filming,
    '-map', '[out]',
    '-t', String(source.durationSeconds),
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', String(o.crf ?? 36), '-pix_fmt', 'yuv420p', '-movflags', '+faststart',
    path,
  ]);
  return { ...source, path, width, height };
}
