import { spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';

/** One generated frame and the values a reader must find on it. */
export interface TruthFrame {
  path: string;
  truth: string[];
}

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const WORDS = ['ALPHA', 'BRAVO', 'CHARLIE', 'DELTA', 'ECHO', 'FOXTROT', 'GOLF', 'HOTEL', 'INDIA', 'JULIET', 'KILO', 'LIMA', 'MIKE', 'NOVEMBER', 'OSCAR', 'PAPA', 'QUEBEC', 'ROMEO', 'SIERRA', 'TANGO', 'UNIFORM', 'VICTOR', 'WHISKEY', 'XRAY', 'YANKEE', 'ZULU'];

/** The values shown on frame i: a white caption word and number at the bottom, a white reading over the picture. */
export function busyFrameTruth(i: number): { caption: string; reading: string; truth: string[] } {
  const word = WORDS[i % WORDS.length]!;
  const km = String(100 + ((i * 73) % 900));
  const reading = String(1000 + i * 137);
  return { caption: `${word} ${km} km`, reading, truth: [word, km, reading] };
}

export function run(cmd: string, args: string[], timeoutMs = 300_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${cmd} exited with ${code}: ${err}`));
    });
  });
}

/**
 * Frames of white captions and numbers over a moving, busy picture (ffmpeg's mandelbrot zoom, one frame per
 * second of its zoom), rendered in one ffmpeg run as JPEG like extracted frames. The reading sits over the
 * fractal's edge, the caption across it.
 */
export async function makeBusyFrames(opts: { dir: string; count: number; width?: number; height?: number }): Promise<TruthFrame[]> {
  const width = opts.width ?? 1280;
  const height = opts.height ?? 720;
  const size = (f: number) => Math.round((height / 720) * f);
  const filters: string[] = [];
  for (let i = 0; i < opts.count; i++) {
    const { caption, reading } = busyFrameTruth(i);
    const when = `enable='eq(n\\,${i})'`;
    filters.push(`drawtext=fontfile=${FONT}:text='${caption}':fontcolor=white:fontsize=${size(56)}:x=(w-tw)/2:y=h-${size(120)}:${when}`);
    filters.push(`drawtext=fontfile=${FONT}:text='${reading}':fontcolor=white:fontsize=${size(64)}:x=w*0.30:y=h*0.40:${when}`);
  }
  await run('ffmpeg', [
    '-loglevel', 'error', '-y',
    '-f', 'lavfi', '-i', `mandelbrot=size=${width}x${height}:rate=1:end_pts=${Math.max(opts.count, 2)}:end_scale=0.05`,
    '-vf', filters.join(','),
    '-frames:v', String(opts.count), '-q:v', '3',
    join(opts.dir, 'busy-%03d.jpg'),
  ]);
  const files = (await readdir(opts.dir)).filter((f) => /^busy-\d{3}\.jpg$/.test(f)).sort();
  return files.slice(0, opts.count).map((f, i) => ({ path: join(opts.dir, f), truth: busyFrameTruth(i).truth }));
}
