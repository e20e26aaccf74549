/**
 * Media made on the spot with ffmpeg and sharp, with the truth of what they show: for tests, the benchmark and
 * the demo upload. Nothing here is downloaded.
 */
export * from './videos.js';
export * from './photos.js';
export * from './seven-segment.js';
export { anchorExtract, anchorRead, benchRounds, medianRound, type AnchorFrames, type AnchorReadOptions, type AnchorReading } from './anchor.js';
export { ffmpeg, drawtext, drawtextEscape, FONT_BOLD, FONT_CJK, FONT_CJK_ZENHEI, FONT_REGULAR } from './ffmpeg.js';
export { filmWithPhone, type PhoneFilming } from './phone.js';
