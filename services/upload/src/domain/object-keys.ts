import { fileExtension, frameTimestampKey, type UploadRequest } from '@frametext/contracts';

const VIDEO_EXTENSION: Record<string, string> = { 'video/mp4': 'mp4', 'video/quicktime': 'mov' };
const IMAGE_EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg' };

/** The extension a stored object gets: the file's own when it is one we accept, else the one its type implies. */
function extensionFor(fileName: string | undefined, mimeType: string, allowed: readonly string[]): string {
  const own = fileName ? fileExtension(fileName) : '';
  if (allowed.includes(own)) return own === 'jpeg' ? 'jpg' : own;
  return VIDEO_EXTENSION[mimeType] ?? IMAGE_EXTENSION[mimeType] ?? 'bin';
}

/** Every object of an upload lives under this folder. */
export function uploadFolder(uploadId: string): string {
  return `uploads/${uploadId}`;
}

/**
 * Where the browser puts each file, in request order (architecture brief): the source video
 * `uploads/<id>/source/video.<ext>`, photos `uploads/<id>/photos/<index>.<ext>`, browser-cut frames
 * `uploads/<id>/incoming/<zero-padded ms>.jpg`.
 */
export function objectKeysFor(uploadId: string, req: UploadRequest): string[] {
  const base = uploadFolder(uploadId);
  switch (req.kind) {
    case 'video':
      return [`${base}/source/video.${extensionFor(req.fileName, req.mimeType, ['mp4', 'mov'])}`];
    case 'photos':
      return req.files.map((f, i) => `${base}/photos/${i}.${extensionFor(f.name, f.type, ['png', 'jpg', 'jpeg'])}`);
    case 'frames':
      return req.timestamps.map((ms) => `${base}/incoming/${frameTimestampKey(ms)}.jpg`);
  }
}
