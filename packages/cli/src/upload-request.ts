import { stat } from 'node:fs/promises';
import { basename, extname } from 'node:path';
import { fileExtension, isImageFileName, isVideoFileName, type ImageMimeType, type VideoMimeType } from '@frametext/contracts/rules';
import type { GetUploadUrlRequest } from '@frametext/contracts';
import { UsageError } from './errors.js';
import type { UploadCommand } from './options.js';
import { videoDurationSeconds } from './video-duration.js';

/*
 * The body of POST /getUploadURL for the files on the command line, as the web app's upload page sends it: one video
 * with its length, or photos each named with its type and last-modified time; and which file goes to which of the
 * answer's upload addresses (one per file, in order).
 */

export interface UploadPlan {
  body: GetUploadUrlRequest;
  files: { path: string; contentType: string; size: number }[];
}

const VIDEO_TYPES: Record<string, VideoMimeType> = { mp4: 'video/mp4', mov: 'video/quicktime' };
const IMAGE_TYPES: Record<string, ImageMimeType> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg' };

async function sizeOf(path: string): Promise<{ size: number; mtimeMs: number }> {
  const info = await stat(path).catch(() => undefined);
  if (!info) throw new UsageError(`no such file: ${path}`, 'upload');
  if (!info.isFile()) throw new UsageError(`${path} is not a file`, 'upload');
  if (info.size === 0) throw new UsageError(`${path} is empty`, 'upload');
  return info;
}

const withoutExtension = (path: string) => basename(path, extname(path));

export async function planUpload(cmd: UploadCommand): Promise<UploadPlan> {
  for (const file of cmd.files) {
    if (!isVideoFileName(file) && !isImageFileName(file)) throw new UsageError(`${file} is neither a video (.mp4, .mov) nor a photo (.png, .jpg, .jpeg)`, 'upload');
  }
  const common = {
    uploadName: cmd.name ?? withoutExtension(cmd.files[0]!),
    mediaContent: cmd.mode,
    ...(cmd.engine ? { ocrType: cmd.engine } : {}),
    ...(cmd.language ? { originalLanguage: cmd.language } : {}),
    ...(cmd.translateTo ? { targetLanguage: cmd.translateTo } : {}),
    ...(cmd.slideDetection === false ? { slideDetection: false } : {}),
  };

  if (cmd.files.some(isVideoFileName)) {
    if (cmd.files.length > 1) throw new UsageError('Please upload one .mov or .mp4 at a time.', 'upload');
    if (cmd.sort) throw new UsageError('--sort orders photos; a video has one order', 'upload');
    const path = cmd.files[0]!;
    const { size } = await sizeOf(path);
    const duration = await videoDurationSeconds(path);
    if (duration === undefined) throw new UsageError(`cannot read how long ${path} lasts: is it really an MP4 or MOV video?`, 'upload');
    const mimeType = VIDEO_TYPES[fileExtension(path)]!;
    return {
      body: {
        kind: 'video',
        isVideo: true,
        mimeType,
        fileName: basename(path),
        size,
        duration,
        ...(cmd.interval !== undefined ? { targetFrameRate: 1 / cmd.interval } : {}),
        ...common,
      },
      files: [{ path, contentType: mimeType, size }],
    };
  }

  if (cmd.interval !== undefined) throw new UsageError('--interval is for a video; each photo is one frame', 'upload');
  const mimeType = IMAGE_TYPES[fileExtension(cmd.files[0]!)]!;
  if (cmd.files.some((f) => IMAGE_TYPES[fileExtension(f)] !== mimeType)) throw new UsageError('Please ensure multiple uploads are the same file type.', 'upload');
  const names = new Set(cmd.files.map((f) => basename(f)));
  if (names.size < cmd.files.length) throw new UsageError('two photos have the same file name; rename one (FrameText orders and labels photos by name)', 'upload');
  const photos = await Promise.all(cmd.files.map(async (path) => ({ path, ...(await sizeOf(path)) })));
  return {
    body: {
      kind: 'photos',
      isVideo: false,
      mimeType,
      files: photos.map((p) => ({ name: basename(p.path), type: mimeType, lastModified: Math.floor(p.mtimeMs), size: p.size })),
      ...(cmd.sort ? { sortPreference: cmd.sort } : {}),
      ...common,
    },
    files: photos.map((p) => ({ path: p.path, contentType: mimeType, size: p.size })),
  };
}
