/*
 * The length of an MP4 or QuickTime video held in memory, from its movie header (`moov` > `mvhd`: a time scale and a
 * duration in its units; ISO/IEC 14496-12). A video sent inline (POST /v1/videos:annotate) has no declared length,
 * and its credits are held from this one before frame-extraction measures it with ffprobe.
 */

/** The content of the first box of `type` between `from` and `to`, or undefined. */
function findBox(bytes: Buffer, type: string, from: number, to: number): { start: number; end: number } | undefined {
  let at = from;
  while (at + 8 <= to) {
    let size = bytes.readUInt32BE(at);
    let header = 8;
    if (size === 1) {
      if (at + 16 > to) return undefined;
      size = Number(bytes.readBigUInt64BE(at + 8));
      header = 16;
    } else if (size === 0) {
      size = to - at;
    }
    if (size < header) return undefined;
    if (bytes.toString('latin1', at + 4, at + 8) === type) return { start: at + header, end: Math.min(at + size, to) };
    at += size;
  }
  return undefined;
}

/** Seconds the video lasts, or undefined when it has no readable movie header. */
export function movieDurationSeconds(bytes: Buffer): number | undefined {
  const moov = findBox(bytes, 'moov', 0, bytes.length);
  const mvhd = moov && findBox(bytes, 'mvhd', moov.start, moov.end);
  if (!mvhd) return undefined;
  const body = bytes.subarray(mvhd.start, mvhd.end);
  // version 0: 4-byte creation and modification times, then time scale (4) and duration (4); version 1: 8-byte times and duration.
  const [timescale, duration] =
    body[0] === 1 && body.length >= 32 ? [body.readUInt32BE(20), Number(body.readBigUInt64BE(24))] : body[0] === 0 && body.length >= 20 ? [body.readUInt32BE(12), body.readUInt32BE(16)] : [0, 0];
  return timescale && duration ? duration / timescale : undefined;
}
