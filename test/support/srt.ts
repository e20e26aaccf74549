// SubRip as the exports write it, read back for the tests.

/** An SRT file's cues: start and end in seconds, and text (its lines joined by a space). */
export function parseSrt(srt: string): { start: number; end: number; text: string }[] {
  const seconds = (clock: string) => {
    const [h, m, s, ms] = clock.split(/[:,]/).map(Number);
    return h! * 3600 + m! * 60 + s! + ms! / 1000;
  };
  return srt
    .trim()
    .split(/\n\n/)
    .map((block) => {
      const [, timing = '', ...lines] = block.split('\n');
      const [from = '', to = ''] = timing.split(' --> ');
      return { start: seconds(from), end: seconds(to), text: lines.join(' ') };
    });
}
