import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { correctionsReducer, DEFAULT_TRACKING_SETTINGS, defaultSeriesName, findNewSeries, inScreenOrder, newUniqueID, noCorrections, numericalExport, numericalJson, numericalFileName, numericalWork, proofSeries, seriesOf, trackBlocks, type BlockSettings, type Track, type TrackingSettings } from '@frametext/text-analysis';
import { foundAlmostNoText } from '@frametext/contracts/rules';
import { Spinner } from '../../../../components/Spinner';
import { FrameSlider, LIVE_SLIDER_LIMIT } from '../../components/FrameSlider';
import { FrameStage } from '../../components/FrameStage';
import type { ViewProps } from '../../components/ResultsShell';
import { frameLabel, textFoundInView } from '../../model';
import { useReportWork } from '../../work/useKeptWork';
import { BlockBoxes, type FrameBox } from './BlockBoxes';
import { BlockEditor } from './BlockEditor';
import { downloadFile } from '../../../../lib/download';
import { FrameBlocksList } from './FrameBlocksList';
import { ExportTable } from './ExportTable';
import { FindNumbers, nothingToPickMessage } from './FindNumbers';
import { HowToModal, HOW_TO_TITLE, howToOpensByItself } from './HowToModal';
import { restoreNumericalWork } from './keptWork';
import { SelectedBlocksTable } from './SelectedBlocksTable';
import { SeriesChart } from './SeriesChart';
import { emptySelection, selectionReducer } from './selection';
import { TrackingSettingsPanel } from './TrackingSettingsPanel';
import { useImageLoaded } from './useImageLoaded';
import './numerical.css';

/**
 * The Numerical view: text blocks followed across frames (tracking), picked as series on the frame, cleaned, and
 * exported as `<upload name>-results.csv`, with a chart of the series over time. The picture and the tracking settings sit left of
 * Find the numbers and Selected Blocks; Results to Export and the chart take the whole width below them. In one
 * column (a phone) Find the numbers comes first and the tracking settings after the series (numerical.css).
 */
export default function NumericalView({ view, work }: ViewProps) {
  const detections = useMemo(() => view.frames.map((f) => f.detections), [view]);
  // The person's series and settings as they left them (the shell reads them before the view is shown).
  const [restored] = useState(() => restoreNumericalWork(work?.initial, detections));
  const [index, setIndex] = useState(0);
  const [settings, setSettings] = useState<TrackingSettings>(() => restored?.tracking ?? { ...DEFAULT_TRACKING_SETTINGS });
  const [selection, select] = useReducer(selectionReducer, restored?.selection ?? emptySelection);
  // An upload with almost no text gets the No Text Results Found dialog alone; the how-to waits for one with text.
  const [howToOpen, setHowToOpen] = useState(() => howToOpensByItself() && !foundAlmostNoText(textFoundInView(view)));
  const [highlight, setHighlight] = useState<number | null>(null);
  // Values typed over the OCR's readings, by series uniqueID and frame index (plain JSON: see text-analysis' numerical-corrections.ts).
  const [corrections, correct] = useReducer(correctionsReducer, restored?.corrections ?? noCorrections);
  useReportWork(
    work,
    useMemo(() => numericalWork(selection.blocks, settings, corrections), [selection.blocks, settings, corrections]),
  );
  const [found, setFound] = useState<string | null>(null);

  const times = useMemo(() => view.frames.map((f) => f.t), [view]);
  const exportFrames = useMemo(() => view.frames.map((f) => ({ t: f.t })), [view]);
  const tracking = useMemo(() => trackBlocks(detections, settings), [detections, settings]);
  const tracks = useMemo(() => new Map<string, Track>(tracking.tracks.map((t) => [t.id, t])), [tracking]);

  // Top of the screen first: the Selected Blocks table, the chart and the CSV's columns list the series alike.
  const rows = useMemo(() => inScreenOrder(selection.blocks.map((b) => seriesOf(detections, b, tracks))), [selection.blocks, detections, tracks]);
  // The series as corrected, with their confidences and unsure cells: the table, the chart and the exports use these.
  const proof = useMemo(() => proofSeries(detections, rows, corrections), [detections, rows, corrections]);
  const selectedIds = useMemo(() => selection.blocks.map((b) => b.uniqueID).join(','), [selection.blocks]);
  useEffect(() => {
    correct({ type: 'seriesKept', seriesIds: selectedIds === '' ? [] : selectedIds.split(',').map(Number) });
  }, [selectedIds]);
  const exportJson = useCallback(() => {
    downloadFile(numericalFileName(view.uploadName, 'json'), numericalJson(numericalExport(view, proof)), 'application/json');
  }, [view, proof]);
  const editing = rows.find((r) => r.block.uniqueID === selection.editing);

  const frame = view.frames[index]!;
  const imageLoaded = useImageLoaded(frame.imageUrl);
  const label = useCallback((i: number) => frameLabel(view, i), [view]);

  // The current frame's boxes: every block tracking follows (the others are filtered out), coloured by selection.
  const boxes = useMemo((): FrameBox[] => {
    const ids = tracking.trackIdAt[index] ?? [];
    const lockedHere = new Set<number>();
    const selectedIds = new Set<string>();
    for (const r of rows) {
      if (r.block.locked) {
        const at = r.indexByFrame.get(index);
        if (at !== undefined) lockedHere.add(at);
      } else selectedIds.add(r.block.id);
    }
    return frame.detections.flatMap((detection, i) => {
      const id = ids[i];
      if (!id) return [];
      const state = lockedHere.has(i) ? 'locked' : selectedIds.has(id) ? 'selected' : 'free';
      return [{ index: i, detection, state }];
    });
  }, [tracking, index, rows, frame]);

  const pick = (i: number) => {
    const box = boxes.find((b) => b.index === i);
    const id = tracking.trackIdAt[index]?.[i];
    if (!box || !id || box.state === 'locked') return;
    const existing = selection.blocks.find((b) => !b.locked && b.id === id);
    if (existing) select({ type: 'editOpened', uniqueID: existing.uniqueID });
    else select({ type: 'added', id, seriesName: defaultSeriesName(box.detection.text), uniqueID: newUniqueID(selection.blocks) });
  };

  const findNumbers = () => {
    const outcome = findNewSeries(detections, tracking.tracks, tracks, rows.map((r) => ({ block: r.block, name: r.values.name })));
    if (outcome.series.length > 0) select({ type: 'found', series: outcome.series });
    const nothingToClick = outcome.series.length === 0 && rows.length === 0 && boxes.length === 0;
    setFound(nothingToClick ? nothingToPickMessage(textFoundInView(view)) : outcome.message);
  };

  const changeTracking = useCallback((next: TrackingSettings) => {
    setSettings(next);
    select({ type: 'trackingChanged' });
  }, []);

  const lock = (uniqueID: number) => {
    const block = selection.blocks.find((b) => b.uniqueID === uniqueID);
    if (!block) return;
    select({ type: 'locked', uniqueID, points: tracks.get(block.id)?.points ?? null });
  };

  return (
    <div className="numerical">
      <div className="numerical__bar">
        <p className="muted small">{boxes.length > 0 ? 'Click a box to follow its text across frames as a series.' : 'No text was found on this frame: move to a frame with text to pick a block.'}</p>
        <button type="button" className="btn btn--secondary btn--icon numerical__help" aria-label={HOW_TO_TITLE} title={HOW_TO_TITLE} onClick={() => setHowToOpen(true)}>
          ?
        </button>
      </div>
      <div className="results__main numerical__main">
        <div className="stack numerical-viewer">
          <div className="numerical-stage">
            <FrameStage frame={frame} label={label(index)} interactive overlay={() => <BlockBoxes boxes={boxes} highlight={highlight} onPick={pick} />} />
            {!imageLoaded && (
              <div className="numerical-stage__loading">
                <Spinner label="Loading Image" detail="This could take a while for 100+ images" />
              </div>
            )}
          </div>
          <p className="field__hint">Green: a selected series. Red: not selected, or locked (dashed). The same blocks are listed under the slider.</p>
          <FrameSlider count={view.frames.length} index={index} onIndex={setIndex} label={label} />
          <FrameBlocksList label={label(index)} boxes={boxes} onPick={pick} onHighlight={setHighlight} />
          <TrackingSettingsPanel settings={settings} onChange={changeTracking} showConfidence={view.hasConfidence} live={view.frames.length < LIVE_SLIDER_LIMIT} />
        </div>
        <div className="stack numerical-side">
          <FindNumbers onFind={findNumbers} message={found} />
          <SelectedBlocksTable
            rows={rows}
            frameCount={view.frames.length}
            boxesOnFrame={boxes.length}
            detections={frame.detections}
            currentFrame={index}
            editing={selection.editing}
            onEdit={(uniqueID) => select({ type: 'editToggled', uniqueID })}
            onLock={lock}
            onUnlock={(uniqueID) => select({ type: 'unlocked', uniqueID })}
            onRemove={(uniqueID) => select({ type: 'removed', uniqueID })}
          />
          {editing && (
            <BlockEditor
              key={editing.block.uniqueID}
              title={editing.values.name}
              settings={editing.block.settings}
              onChange={(change: Partial<BlockSettings>) => select({ type: 'settingsChanged', uniqueID: editing.block.uniqueID, settings: change })}
              onClose={() => select({ type: 'editToggled', uniqueID: editing.block.uniqueID })}
            />
          )}
        </div>
      </div>
      <ExportTable uploadName={view.uploadName} frames={exportFrames} pictures={view.frames} frameLabel={label} proof={proof} onCorrection={correct} onShowFrame={setIndex} onExportJson={exportJson} />
      {proof.length > 0 && <SeriesChart uploadName={view.uploadName} times={times} proof={proof} />}
      {howToOpen && <HowToModal onClose={() => setHowToOpen(false)} />}
    </div>
  );
}
