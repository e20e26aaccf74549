import { run } from '../bench/frames.js';

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

export interface DrawnText {
  text: string;
  x: number;
  y: number;
  size: number;
  color: string;
}

/** A JPEG frame made with ffmpeg: texts drawn at known places over a plain colour or a busy fractal. */
export async function makeFrame(path: string, opts: { width: number; height: number; background: 'busy' | string; texts: DrawnText[]; at?: number }): Promise<void> {
  const source = opts.background === 'busy' ? `mandelbrot=size=${opts.width}x${opts.height}:rate=1:end_pts=20:end_scale=0.05` : `color=c=${opts.background}:size=${opts.width}x${opts.height}:rate=1`;
  const draws = opts.texts.map((t) => `drawtext=fontfile=${FONT}:text='${t.text}':fontcolor=${t.color}:fontsize=${t.size}:x=${t.x}:y=${t.y}`).join(',');
  const at = opts.at ?? 0;
  await run('ffmpeg', ['-loglevel', 'error', '-y', '-f', 'lavfi', '-i', source, '-vf', `trim=start_frame=${at}:end_frame=${at + 1},${draws}`, '-frames:v', '1', '-q:v', '3', path]);
}
