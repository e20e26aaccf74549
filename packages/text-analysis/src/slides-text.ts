import { parseKeptWork, type PresentationWork } from '@frametext/contracts';
import { normaliseBullets } from './bullets.js';
import { exportFileName, frameLabel, type ResultsFrame, type ResultsSource } from './results-frames.js';
import { earlierBuilds } from './slide-builds.js';

/*
 * The Presentation view's text: each frame's readable lines, and the ticked frames' text that "Export selected
 * text" shows and saves. Shared by the browser and the server's export.
 */

/** The file of the selected frames' text: `<upload name>-selected-slides.txt`. */
export const selectedSlidesFileName = (uploadName: string) => exportFileName(uploadName, 'selected-slides', 'txt');
/** The upload's own results file, as the server wrote it, saved as `<upload name>-slides.txt`. */
export const presentationFileName = (uploadName: string) => exportFileName(uploadName, 'slides', 'txt');

/**
 * A frame's readable lines, trimmed, without blank ones (its text split in lines when it has no line list), with
 * a leading bullet however the OCR read it (`¢`, `*`, `e`...) written `•`.
 */
export function frameLines(frame: ResultsFrame): string[] {
  const source = frame.lines.length > 0 ? frame.lines.map((l) => l.text) : frame.text.split('\n');
  return normaliseBullets(source.flatMap((line) => line.split('\n')).map((line) => line.trim()).filter(Boolean));
}

/** Each selected frame's label with its lines below it; a blank line between frames. */
export function selectedSlidesText(view: Pick<ResultsSource, 'format' | 'timeDecimals' | 'frames'>, selected: readonly boolean[]): string {
  const sections = view.frames.flatMap((frame, i) => {
    if (!selected[i]) return [];
    const lines = frameLines(frame);
    return [`${frameLabel(view, i)}\n${lines.length ? lines.join('\n') : '(no text found)'}`];
  });
  return sections.length ? `${sections.join('\n\n')}\n` : '';
}

/*
 * The Presentation view's kept work: the similarity threshold and the ticked frames. A new piece of
 * state is kept by adding it here, in both functions, and to presentationWorkSchema in @frametext/contracts.
 */

export function presentationWork(selected: readonly boolean[], threshold: number): PresentationWork {
  return { version: 1, threshold, selected: [...selected] };
}

/** The kept work as the view's state, or null when there is none or its ticks do not fit the upload's frames. */
export function restorePresentationWork(kept: unknown, frameCount: number): PresentationWork | null {
  const work = parseKeptWork('presentation', kept);
  return work && work.selected.length === frameCount ? work : null;
}

/**
 * The frames ticked in the person's kept work (null: none kept, or ticks that do not fit the frames): otherwise the
 * ticks the view starts with, every frame but the earlier builds of the slide after it.
 */
export function keptSlidesSelection(frames: readonly ResultsFrame[], kept: unknown): boolean[] {
  const restored = restorePresentationWork(kept, frames.length);
  return restored?.selected ?? earlierBuilds(frames.map((f) => frameLines(f).join('\n'))).map((build) => !build);
}
