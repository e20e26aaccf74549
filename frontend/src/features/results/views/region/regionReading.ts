/* What the Region view reads: in @frametext/text-analysis (region-reading.ts), shared with the server's export. */
export { boxCues, fileSafeName, hasAnyLine, readFrame, readFrames, subtitleFileName, type Space } from '@frametext/text-analysis';
