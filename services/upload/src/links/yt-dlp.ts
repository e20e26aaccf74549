import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import path from 'node:path';

/*
 * One run of yt-dlp (Debian's package), the maintained downloader videos by link are fetched with. A child process
 * with no shell, its arguments a list; no configuration file, cache or cookies read; everything it writes is inside
 * `dir` (home and temporary paths, a fixed file name, HOME and XDG folders pointed there); every connection through
 * the vetting proxy; one video, never a playlist; one file in one container, no merging; at most `maxBytes` and
 * `maxSeconds` when the site says so before the fetch (the proxy's byte count and the checks after the fetch hold
 * either way); killed after `timeoutMs`.
 */

export interface YtDlpRun {
  binary: string;
  url: string;
  /** The extractor to use: the site's (youtube) for its links, any for other addresses (a direct file is "generic"). */
  extractor: 'youtube' | 'any';
  dir: string;
  proxyUrl: string;
  maxBytes: number;
  maxSeconds: number;
  timeoutMs: number;
  onProgress(progress: { bytes: number; total: number | null }): void;
  signal: AbortSignal;
}

export interface YtDlpOutcome {
  /** The file written, as yt-dlp printed it; undefined when it wrote none. */
  file?: string;
  exitCode: number | null;
  timedOut: boolean;
  /** What it said (ERROR and WARNING lines, skip notices), for the failure's reason and the logs. */
  messages: string[];
}

const PROGRESS = 'ftprogress';
/** Where yt-dlp writes the path of the file it fetched (inside the scratch dir, beside the file). */
const FILE_LIST = 'fetched.txt';

/**
 * The format: a single file with its video, MP4 (H.264 first, as every ffmpeg reads it) or MOV, within the size
 * cap when the size is known; for YouTube the best H.264 video stream up to 1080p (the text on screen is what is
 * read, not the sound), else the best single MP4 with sound.
 */
export function formatSelector(maxBytes: number): string {
  const size = `[filesize<=?${maxBytes}]`;
  return [`bv*[ext=mp4][vcodec^=avc1][height<=1080]${size}`, `b[ext=mp4]${size}`, `b[ext=mov]${size}`].join('/');
}

export function ytDlpArgs(run: Pick<YtDlpRun, 'url' | 'extractor' | 'dir' | 'proxyUrl' | 'maxBytes' | 'maxSeconds'>): string[] {
  return [
    '--ignore-config',
    '--no-cache-dir',
    '--no-cookies',
    '--no-playlist',
    ...(run.extractor === 'youtube' ? ['--use-extractors', 'youtube'] : []),
    '--proxy',
    run.proxyUrl,
    '--socket-timeout',
    '30',
    '--paths',
    `home:${run.dir}`,
    '--paths',
    `temp:${run.dir}`,
    '--output',
    'video.%(ext)s',
    '--restrict-filenames',
    '--no-mtime',
    '--format',
    formatSelector(run.maxBytes),
    '--max-filesize',
    String(run.maxBytes),
    '--match-filter',
    `!is_live & duration <=? ${run.maxSeconds}`,
    '--no-colors',
    '--newline',
    '--progress',
    '--progress-template',
    `download:${PROGRESS} %(progress.downloaded_bytes)s %(progress.total_bytes)s %(progress.total_bytes_estimate)s`,
    // Not --print, which would silence the notices a failure is told by (the size and length caps).
    '--print-to-file',
    'after_move:%(filepath)s',
    path.join(run.dir, FILE_LIST),
    '--',
    run.url,
  ];
}

const wholeNumber = (text: string | undefined) => {
  const n = Number(text);
  return Number.isFinite(n) && n >= 0 ? Math.round(n) : null;
};

export function runYtDlp(run: YtDlpRun): Promise<YtDlpOutcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(run.binary, ytDlpArgs(run), {
      cwd: run.dir,
      // Nothing of the service's environment (proxies, credentials): a home and folders of its own, in the scratch dir.
      env: { PATH: '/usr/local/bin:/usr/bin:/bin', HOME: run.dir, XDG_CACHE_HOME: run.dir, XDG_CONFIG_HOME: run.dir, LANG: 'C.UTF-8', PYTHONDONTWRITEBYTECODE: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const messages: string[] = [];
    let timedOut = false;
    const onLine = (line: string) => {
      const text = line.trim();
      if (text.startsWith(`${PROGRESS} `)) {
        const [, bytes, total, estimate] = text.split(' ');
        const done = wholeNumber(bytes);
        if (done !== null) run.onProgress({ bytes: done, total: wholeNumber(total) ?? wholeNumber(estimate) });
      } else if (/^(ERROR|WARNING):|does not pass filter|larger than max-filesize|is_live/.test(text)) {
        if (messages.length < 50) messages.push(text.slice(0, 1000));
      }
    };
    for (const stream of [child.stdout, child.stderr]) {
      let rest = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        const lines = (rest + chunk).split(/\r?\n|\r/);
        rest = lines.pop() ?? '';
        lines.forEach(onLine);
      });
      stream.on('end', () => rest && onLine(rest));
    }
    const stop = () => child.kill('SIGKILL');
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, run.timeoutMs);
    run.signal.addEventListener('abort', stop, { once: true });
    child.on('error', (err) => {
      clearTimeout(timer);
      reject(new Error(`yt-dlp could not start (${run.binary}): ${err.message}`));
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      run.signal.removeEventListener('abort', stop);
      readFile(path.join(run.dir, FILE_LIST), 'utf8').then(
        (list) => resolve({ file: list.split('\n').find(Boolean), exitCode, timedOut, messages }),
        () => resolve({ exitCode, timedOut, messages }),
      );
    });
  });
}
