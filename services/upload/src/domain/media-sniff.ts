/** What the first bytes of a file say it is. */
export type SniffedType = 'iso-bmff' | 'png' | 'jpeg' | 'unknown';

/** Bytes needed to tell the types apart. */
export const SNIFF_BYTES = 12;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
/**
 * First box types of MP4 and MOV files: `ftyp` in every MP4 and modern QuickTime file; older QuickTime files may
 * start with `moov`, `mdat`, `wide`, `free`, `skip` or `pnot` instead.
 */
const ISO_BMFF_FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

/** The MIME type of an MP4 or MOV file (sniffMedia said iso-bmff) by its `ftyp` brand: `qt  ` is QuickTime. */
export const movieMimeType = (head: Buffer): 'video/mp4' | 'video/quicktime' => (head.toString('latin1', 8, 12) === 'qt  ' ? 'video/quicktime' : 'video/mp4');

export function sniffMedia(head: Buffer): SniffedType {
  if (head.length >= 8 && ISO_BMFF_FIRST_BOXES.has(head.subarray(4, 8).toString('latin1'))) return 'iso-bmff';
  if (head.length >= PNG_SIGNATURE.length && head.subarray(0, PNG_SIGNATURE.length).equals(PNG_SIGNATURE)) return 'png';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  return 'unknown';
}
