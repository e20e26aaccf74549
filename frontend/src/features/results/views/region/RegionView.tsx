import { useCallback, useDeferredValue, useId, useMemo, useState } from 'react';
import {
  activeBoxes,
  blockLimits,
  boxCues,
  defaultCaptionBox,
  filterBlocks,
  initialBoxes,
  openFilters,
  readFrame,
  readFrames,
  regionWork,
  restoreRegionWork,
  selectionAfter,
  setEnabled,
  setRect,
  zonesOfFrames,
  type BlockFilters,
  type BoxId,
  type Rect,
} from '@frametext/text-analysis';
import { FrameSlider } from '../../components/FrameSlider';
import { FrameStage } from '../../components/FrameStage';
import type { ViewProps } from '../../components/ResultsShell';
import { frameLabel } from '../../model';
import { useReportWork } from '../../work/useKeptWork';
import { AllFramesTable } from './AllFramesTable';
import { BoxControls } from './BoxControls';
import { BoxOverlay } from './BoxOverlay';
import { FrameBoxText } from './FrameBoxText';
import { RegionExports } from './RegionExports';
import { RegionFilters } from './RegionFilters';
import { TextZones } from './TextZones';
import { useFrameSpaces } from './useFrameSpaces';
import './region.css';

/**
 * The Region view: up to four boxes over the frames (captions, subtitles, any text that stays in one place); the
 * text wholly inside each box, frame by frame, in a table and as CSV, TXT, SRT or WebVTT.
 */
export default function RegionView({ view, work }: ViewProps) {
  const hintId = useId();
  // The person's boxes and filters as they left them (the shell reads them before the view is shown).
  const [restored] = useState(() => restoreRegionWork(work?.initial));
  const [index, setIndex] = useState(0);
  const [selected, setSelected] = useState<BoxId>(restored?.selected ?? 0);
  const limits = useMemo(() => blockLimits(view.frames.map((f) => f.detections)), [view]);
  const [filters, setFilters] = useState<BlockFilters>(() => restored?.filters ?? openFilters(limits));
  const spaceOf = useFrameSpaces(view);
  // Where the upload's text sits; until the person places a box, Green sits on the band where captions come and go.
  const zones = useMemo(() => zonesOfFrames(view.frames, spaceOf), [view, spaceOf]);
  const [placedBoxes, setPlacedBoxes] = useState(() => restored?.boxes ?? null);
  const boxes = useMemo(() => placedBoxes ?? initialBoxes(defaultCaptionBox(zones)), [placedBoxes, zones]);
  useReportWork(
    work,
    useMemo(() => regionWork(boxes, selected, filters), [boxes, selected, filters]),
  );

  const active = useMemo(() => activeBoxes(boxes), [boxes]);
  const rects = useMemo(() => active.map((b) => b.norm), [active]);
  // The whole upload is read again after the urgent update (the box just moved) has been drawn; the table and the
  // exports use these deferred boxes, so their columns always match their cells, and deferred frame sizes, so the
  // box the sizes place on the caption band (zones) arrives with them.
  const tableBoxes = useDeferredValue(active);
  const deferredFilters = useDeferredValue(filters);
  const tableSpaceOf = useDeferredValue(spaceOf);
  const readings = useMemo(() => readFrames(view.frames, tableSpaceOf, tableBoxes.map((b) => b.norm), deferredFilters), [view, tableSpaceOf, tableBoxes, deferredFilters]);
  const cues = useMemo(() => boxCues(view.frames, tableSpaceOf, tableBoxes.map((b) => b.norm), deferredFilters), [view, tableSpaceOf, tableBoxes, deferredFilters]);

  const frame = view.frames[index]!;
  const space = spaceOf(index);
  const current = useMemo(() => readFrame(frame, space, rects, filters), [frame, space, rects, filters]);
  const shownBlocks = useMemo(() => filterBlocks(frame.detections, filters), [frame, filters]);
  const label = useCallback((i: number) => frameLabel(view, i), [view]);

  const enable = (id: BoxId, on: boolean) => {
    const next = setEnabled(boxes, id, on);
    setPlacedBoxes(next);
    setSelected(on ? id : selectionAfter(next, selected));
  };
  const place = useCallback(
    (id: BoxId, rect: Rect) => {
      setPlacedBoxes((prev) => setRect(prev ?? boxes, id, rect));
      setSelected(id);
    },
    [boxes],
  );

  return (
    <div className="region">
      <div className="results__main">
        <div className="stack region-viewer">
          <FrameStage
            frame={frame}
            label={label(index)}
            interactive
            overlay={(s) => <BoxOverlay space={s} boxes={boxes} selected={selected} blocks={shownBlocks} zones={zones} hintId={hintId} onSelect={setSelected} onChange={place} />}
          />
          <p id={hintId} className="field__hint region-viewer__hint">
            Drag on the picture to draw the selected box, drag a box to move it, or drag its corners to resize it. With a box focused, arrow keys move it
            and Shift + arrow keys resize it. Text counts only when it lies wholly inside a box.
          </p>
          <FrameSlider count={view.frames.length} index={index} onIndex={setIndex} label={label} />
          <BoxControls boxes={boxes} selected={selected} onEnabled={enable} onSelect={setSelected} />
          <RegionFilters filters={filters} onChange={setFilters} showConfidence={view.hasConfidence} limits={limits} />
        </div>
        <div className="stack region-side">
          <FrameBoxText label={label(index)} boxes={active} lines={current} ready={space !== null} />
          <TextZones zones={zones} box={boxes.find((b) => b.id === selected)} ready={space !== null} onPick={(rect) => place(selected, rect)} />
          <RegionExports uploadName={view.uploadName} boxes={tableBoxes} readings={readings} cues={cues} />
          <AllFramesTable boxNames={tableBoxes.map((b) => b.name)} readings={readings} current={index} onFrame={setIndex} />
        </div>
      </div>
    </div>
  );
}
