import { spawn } from 'node:child_process';

export const FONT_REGULAR = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
export const FONT_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
/** Chinese text: WenQuanYi's two Hei faces (Debian's fonts-wqy-microhei and fonts-wqy-zenhei). */
export const FONT_CJK = '/usr/share/fonts/truetype/wqy/wqy-microhei.ttc';
export const FONT_CJK_ZENHEI = '/usr/share/fonts/truetype/wqy/wqy-zenhei.ttc';

/** Runs ffmpeg with arguments (never a shell) and rejects with its last error lines. */
export function ffmpeg(args: string[], timeoutMs = 300_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', '-y', ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr = (stderr + c.toString()).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`ffmpeg could not start (${err.message}); install Debian's ffmpeg`));
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code}: ${stderr.trim()}`));
    });
  });
}

/** Escapes text for a drawtext `text=` value inside a filter graph. */
export function drawtextEscape(text: string): string {
  return text.replace(/\\/g, '\\\\\\\\').replace(/'/g, "\u2019").replace(/:/g, '\\:').replace(/%/g, '\\%').replace(/,/g, '\\,');
}

export interface DrawText {
  text: string;
  x: number | string;
  y: number | string;
  size: number;
  color?: string;
  bold?: boolean;
  /** A font file of its own (FONT_CJK for Chinese), in place of DejaVu's. */
  font?: string;
  /** Outline width in pixels (black), 0 for none. */
  border?: number;
  /** Shown only between these seconds. */
  from?: number;
  to?: number;
  /** Raw drawtext expansion allowed (numbers that change over time); the text is used as is. */
  expand?: boolean;
}

export function drawtext(d: DrawText): string {
  const parts = [
    `fontfile=${d.font ?? (d.bold ? FONT_BOLD : FONT_REGULAR)}`,
    `text='${d.expand ? d.text : drawtextEscape(d.text)}'`,
    `x=${d.x}`,
    `y=${d.y}`,
    `fontsize=${d.size}`,
    `fontcolor=${d.color ?? 'white'}`,
  ];
  if (!d.expand) parts.push('expansion=none');
  if (d.border) parts.push(`borderw=${d.border}`, 'bordercolor=black');
  if (d.from !== undefined && d.to !== undefined) parts.push(`enable='between(t,${d.from},${d.to - 0.001})'`);
  return `drawtext=${parts.join(':')}`;
}

/** Encodes an H.264 MP4 that every browser and ffprobe reads. */
export function h264Args(path: string, seconds: number): string[] {
  return ['-t', String(seconds), '-c:v', 'libx264', '-preset', 'veryfast', '-pix_fmt', 'yuv420p', '-movflags', '+faststart', path];
}
