import { wordSet } from './slide-similarity.js';

/*
 * Slides that build up. A slide that shows its bullets one at a time looks like a new slide at every bullet to
 * slide detection (it compares pixels, and cannot know text). After OCR the text tells: a frame whose words all
 * appear in the next frame, which adds words of its own, is an earlier build of that frame. A run of builds
 * ends in the slide's fullest build, which is the one to keep; the earlier ones are kept too, marked, so nothing
 * is lost.
 *
 * OCR does not read a frame exactly the same twice (on the build-up deck it dropped "Small" from one build of
 * "Small releases are safer"), so up to 15% of a frame's words (rounded down: one from 7 words on) may be missing
 * from the next, and the next must then add more new words than are missing (a repeat read with one word changed is
 * not a build); a shorter frame must be wholly contained. Misjudging errs on keeping a frame, never on losing one.
 */

/** Share of an earlier build's words that may be missing from the next frame (rounded down). */
export const BUILD_MISSING_SHARE = 0.15;

/** Whether a frame with `earlier` words is built on by a frame with `later` words. */
export function isBuiltOn(earlier: ReadonlySet<string>, later: ReadonlySet<string>): boolean {
  if (earlier.size === 0) return false;
  let missing = 0;
  for (const word of earlier) if (!later.has(word)) missing++;
  if (missing > Math.floor(earlier.size * BUILD_MISSING_SHARE)) return false;
  // Words beyond those that may be misreadings of the missing ones: a repeat read with a word changed is not a build.
  return later.size - (earlier.size - missing) > missing;
}

/** For each frame's text, whether it is an earlier build of the frame after it (the last frame never is). */
export function earlierBuilds(texts: readonly string[]): boolean[] {
  const words = texts.map(wordSet);
  return words.map((w, i) => i + 1 < words.length && isBuiltOn(w, words[i + 1]!));
}
