import type { Engine, MediaContent, TextFound } from '@frametext/contracts/rules';
import { useGetPublicConfigQuery } from '../lib/credits/api';
import { SUPPORT_EMAIL } from '../lib/contact';

/*
 * What the upload wizard and the results view say when a reading found no text, or almost none (foundAlmostNoText):
 * what was read, and what to try. Only options the upload wizard offers are suggested.
 */

export const NO_TEXT_TITLE = 'No Text Results Found';

const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** "Text was found on 1 of 120 frames: 1 word in all." */
export function textFoundSentence({ frames, framesWithText, words }: TextFound): string {
  if (framesWithText === 0) return frames === 1 ? 'No text was found on the one frame read.' : `No text was found on any of the ${frames} frames.`;
  return `Text was found on ${framesWithText} of ${count(frames, 'frame', 'frames')}: ${count(words, 'word', 'words')} in all.`;
}

/** "6 credits were charged for the 120 frames read." */
export function chargeSentence({ credits, framesRead }: { credits: number; framesRead: number }): string {
  return `${count(credits, 'credit was', 'credits were')} charged for the ${count(framesRead, 'frame', 'frames')} read.`;
}

interface WhatToTryProps {
  /** The engine that read the upload (null: not known). */
  engine: Engine | null;
  /** What the upload was said to show: the Basic engine reads seven-segment digits only on Numerical uploads. */
  mediaContent: MediaContent | null;
  isVideo: boolean;
}

/**
 * The advice: the Cloud AI engine where this server offers it; the seven-segment reader (the Basic engine on a
 * Numerical upload) when the upload was read without it; another frame interval for a video; a sharper picture.
 */
export function WhatToTry({ engine, mediaContent, isVideo }: WhatToTryProps) {
  const { data: config } = useGetPublicConfigQuery();
  const cloudOffered = config?.engines.some((e) => e.engine === 'cloud' && e.available) ?? false;
  return (
    <div className="stack">
      <h3>What to try</h3>
      <ul>
        {engine !== 'cloud' && cloudOffered && (
          <li>Upload it again with the Cloud AI engine: it reads small, angled or stylised text, such as seven-segment digits, that the other engines can miss.</li>
        )}
        {engine === 'local' && (
          <li>Upload it again with the Basic engine and Media content Numerical: it also reads the digits of LCD and LED displays (seven-segment digits), which the Local engine cannot.</li>
        )}
        {engine === 'server' && mediaContent !== null && mediaContent !== 'numerical' && (
          <li>If the text is the digits of an LCD or LED display, upload it again with Media content Numerical: the Basic engine reads seven-segment digits only there.</li>
        )}
        {isVideo && <li>Upload it again with a different frame interval: a shorter one catches text that is on screen only briefly.</li>}
        <li>Record or crop so the text is sharp and fills more of the picture.</li>
      </ul>
    </div>
  );
}

/** The spec's contact line under "Your media does not appear to contain any text." */
export function NoTextSupportLine() {
  return (
    <p className="muted">
      If you think it does, write to <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a> and we will take a look.
    </p>
  );
}
