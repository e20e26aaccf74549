import { describe, expect, it } from 'vitest';
import { earlierBuilds, isBuiltOn } from './slide-builds.js';
import { wordSet } from './slide-similarity.js';

describe('slides that build up', () => {
  it('marks each build of a slide but its fullest, and starts again at a new slide', () => {
    const frames = [
      'Quarterly review\n• Revenue grew',
      'Quarterly review\n• Revenue grew\n• Costs stayed flat',
      'Quarterly review\n• Revenue grew\n• Costs stayed flat\n• Hiring is on plan',
      'Customer stories\n• Three teams shipped faster',
      'Customer stories\n• Three teams shipped faster\n• Support tickets fell',
    ];
    expect(earlierBuilds(frames)).toEqual([true, true, false, true, false]);
  });

  it('does not take a slide that shares its title with the next but not its bullets for a build', () => {
    expect(earlierBuilds(['Agenda\n• Budget', 'Agenda\n• Hiring\n• Travel'])).toEqual([false, false]);
  });

  it('does not take a repeat for a build, nor a blank frame, nor the last frame', () => {
    expect(earlierBuilds(['Next steps\n• Hire', 'Next steps\n• Hire', '', 'Next steps\n• Hire'])).toEqual([false, false, false, false]);
  });

  it('allows up to 15% of the words to be misread between builds, but only when the next frame adds words besides the misread ones', () => {
    // As read on the build-up deck: the next build lost "Small".
    expect(isBuiltOn(wordSet('What we learned\n• SMall releases are safer'), wordSet('What we learned\n• releases are safer\n• Write the test first'))).toBe(true);
    const ten = 'one two three four five six seven eight nine ten';
    const misread = 'one two three four five six seven eight nine tem';
    expect(isBuiltOn(wordSet(ten), wordSet(`${misread} eleven twelve`))).toBe(true);
    expect(isBuiltOn(wordSet(ten), wordSet(misread))).toBe(false); // the same slide read twice
    expect(isBuiltOn(wordSet(ten), wordSet(`${misread} eleven`))).toBe(true); // one word added besides the misread one
    expect(isBuiltOn(wordSet(ten), wordSet('one two three four five six seven eight nime tem eleven'))).toBe(false); // two missing of ten
    expect(isBuiltOn(wordSet('Title one'), wordSet('Title two three'))).toBe(false); // short frames: no word may be missing
  });
});
