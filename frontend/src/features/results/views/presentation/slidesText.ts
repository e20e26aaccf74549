import { normaliseBullets } from '@frametext/text-analysis';
import { frameLabel, type ResultsFrame, type ResultsView } from '../../model';

/** The file of the selected frames' text: `{uploadID}-selected-slides.txt`. */
export const selectedSlidesFileName = (uploadID: string) => `${uploadID}-selected-slides.txt`;
/** The upload's own results file, as the server wrote it. */
export const PRESENTATION_FILE = 'presentation.txt';

/**
 * A frame's readable lines, trimmed, without blank ones (its text split in lines when it has no line list), with
 * a leading bullet however the OCR read it (`¢`, `*`, `e`...) written `•`.
 */
export function frameLines(frame: ResultsFrame): string[] {
  const source = frame.lines.length > 0 ? frame.lines.map((l) => l.text) : frame.text.split('\n');
  return normaliseBullets(source.flatMap((line) => line.split('\n')).map((line) => line.trim()).filter(Boolean));
}

/** Each selected frame's label with its lines below it; a blank line between frames. */
export function selectedSlidesText(view: ResultsView, selected: readonly boolean[]): string {
  const sections = view.frames.flatMap((frame, i) => {
    if (!selected[i]) return [];
    const lines = frameLines(frame);
    return [`${frameLabel(view, i)}\n${lines.length ? lines.join('\n') : '(no text found)'}`];
  });
  return sections.length ? `${sections.join('\n\n')}\n` : '';
}
