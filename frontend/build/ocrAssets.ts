import { createReadStream, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Plugin } from 'vite';

/*
 * The Local engine's files, served from our own origin (no CDN, works offline): tesseract.js's worker script, its
 * core in the three builds the worker picks from by the browser's SIMD support (plain, SIMD, relaxed SIMD; the
 * LSTM-only ones, as the engine runs OEM 1), and the English LSTM model. In development they are served from
 * node_modules; a build copies them to dist under a folder named after their versions, so the gateway can cache
 * them like the hashed assets. The SPA reads the addresses from the module `virtual:ocr-assets`.
 */

const require = createRequire(import.meta.url);
const VIRTUAL = 'virtual:ocr-assets';
const RESOLVED = '\0' + VIRTUAL;

interface OcrFile {
  /** Name under the folder. */
  name: string;
  source: string;
}

function packageDir(name: string, from?: string): string {
  const manifest = require.resolve(`${name}/package.json`, from ? { paths: [from] } : undefined);
  return path.dirname(manifest);
}

function version(dir: string): string {
  return (JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { version: string }).version;
}

/** Where the files are, and the folder they are served from. */
export function ocrFiles(): { base: string; files: OcrFile[] } {
  const tesseract = packageDir('tesseract.js');
  const core = packageDir('tesseract.js-core', tesseract);
  const eng = packageDir('@tesseract.js-data/eng');
  const base = `/assets/ocr-${version(tesseract)}-${version(core)}-eng-${version(eng)}`;
  const files: OcrFile[] = [
    { name: 'worker.min.js', source: path.join(tesseract, 'dist', 'worker.min.js') },
    ...['tesseract-core-lstm.wasm.js', 'tesseract-core-simd-lstm.wasm.js', 'tesseract-core-relaxedsimd-lstm.wasm.js'].map((name) => ({ name, source: path.join(core, name) })),
    // The LSTM-only "best (integer)" model: what tesseract.js itself loads for OEM 1, 3 MB instead of 11.
    { name: 'eng.traineddata.gz', source: path.join(eng, '4.0.0_best_int', 'eng.traineddata.gz') },
  ];
  return { base, files };
}

const TYPES: Record<string, string> = { '.js': 'text/javascript', '.gz': 'application/gzip' };

export function ocrAssets(): Plugin {
  const { base, files } = ocrFiles();
  return {
    name: 'frametext-ocr-assets',
    resolveId: (id) => (id === VIRTUAL ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      return [
        `export const workerPath = ${JSON.stringify(`${base}/worker.min.js`)};`,
        `export const corePath = ${JSON.stringify(base)};`,
        `export const langPath = ${JSON.stringify(base)};`,
      ].join('\n');
    },
    configureServer(server) {
      server.middlewares.use((req, res, next) => {
        const url = req.url?.split('?')[0] ?? '';
        const file = url.startsWith(`${base}/`) ? files.find((f) => `${base}/${f.name}` === url) : undefined;
        if (!file) return next();
        res.setHeader('content-type', TYPES[path.extname(file.name)] ?? 'application/octet-stream');
        createReadStream(file.source).pipe(res);
      });
    },
    generateBundle() {
      for (const file of files) this.emitFile({ type: 'asset', fileName: `${base.slice(1)}/${file.name}`, source: readFileSync(file.source) });
    },
  };
}
