import { useId, useState } from 'react';
import { hasAnyLine, regionCsv, regionFileName, regionTxt, subtitleFileName, toSrt, toVtt, type BoxId, type CaptionCue, type RegionExportFrame, type SelectionBox } from '@frametext/text-analysis';
import { downloadFile } from '../../../../lib/download';

interface Props {
  uploadName: string;
  boxes: readonly SelectionBox[];
  readings: readonly RegionExportFrame[];
  /** Each box's captions as cues, same order as `boxes`. */
  cues: readonly (readonly CaptionCue[])[];
}

/** CSV of every box by frame, TXT of every box's captions, and SRT or WebVTT subtitles of one chosen box. */
export function RegionExports({ uploadName, boxes, readings, cues }: Props) {
  const id = useId();
  const [chosen, setChosen] = useState<BoxId | null>(null);
  const names = boxes.map((b) => b.name);
  const ready = boxes.length > 0 && hasAnyLine(readings);
  const boxIndex = Math.max(0, boxes.findIndex((b) => b.id === chosen));
  const box = boxes[boxIndex];

  const subtitles = (ext: 'srt' | 'vtt') => {
    if (!box) return;
    const own = cues[boxIndex] ?? [];
    downloadFile(subtitleFileName(uploadName, box.name, ext), ext === 'srt' ? toSrt(own) : toVtt(own), ext === 'srt' ? 'application/x-subrip;charset=utf-8' : 'text/vtt;charset=utf-8');
  };

  return (
    <section className="card region-exports" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="region-side__title">
        Export
      </h2>
      {!ready && <p className="field__hint">{boxes.length === 0 ? 'Turn on a box to export its text.' : 'No text lies wholly inside the boxes yet: move or resize them over the text.'}</p>}
      <div className="cluster">
        <button type="button" className="btn btn--primary btn--sm" disabled={!ready} onClick={() => downloadFile(regionFileName(uploadName, 'csv'), regionCsv(names, readings), 'text/csv;charset=utf-8')}>
          Export CSV
        </button>
        <button type="button" className="btn btn--secondary btn--sm" disabled={!ready} onClick={() => downloadFile(regionFileName(uploadName, 'txt'), regionTxt(names, cues))}>
          Export TXT
        </button>
      </div>
      <div className="region-exports__subtitles">
        <div className="field">
          <label htmlFor={`${id}-box`}>Subtitles from</label>
          <select id={`${id}-box`} className="select" value={box?.id ?? ''} disabled={boxes.length === 0} onChange={(e) => setChosen(Number(e.target.value) as BoxId)}>
            {boxes.map((b) => (
              <option key={b.id} value={b.id}>
                {b.name} box
              </option>
            ))}
          </select>
        </div>
        <div className="cluster">
          <button type="button" className="btn btn--secondary btn--sm" disabled={!ready} onClick={() => subtitles('srt')}>
            Export SRT
          </button>
          <button type="button" className="btn btn--secondary btn--sm" disabled={!ready} onClick={() => subtitles('vtt')}>
            Export WebVTT
          </button>
        </div>
      </div>
    </section>
  );
}
