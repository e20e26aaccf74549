import { memo, useEffect, useMemo, useRef, useState, type CSSProperties } from 'react';
import type { ProofSeries } from '@frametext/text-analysis';
import { selectTheme, toastShown } from '../../../../lib/ui';
import { useAppDispatch, useAppSelector } from '../../../../lib/store';
import { downloadFile } from '../../../../lib/download';
import { cellsOf, chartFileName, chartModel, marksCaption } from './chartData';
import { chartSvg, chartSvgSize, svgToPng } from './chartSvg';
import type { ChartColours } from './lineChart';

interface Props {
  uploadName: string;
  times: readonly (number | null)[];
  /** The selected series as corrected, with what proofreading says of each cell. */
  proof: readonly ProofSeries[];
}

type Drawn = { destroy(): void } | null;

function themeColours(): ChartColours {
  const css = getComputedStyle(document.documentElement);
  const read = (name: string, fallback: string) => css.getPropertyValue(name).trim() || fallback;
  return { text: read('--text', '#1d2330'), muted: read('--muted', '#5c6370'), grid: read('--border', '#d0d5dd'), background: read('--surface', '#ffffff') };
}

/**
 * The selected series over time as a line chart (Chart.js, loaded when first needed), one value axis per unit
 * stacked one above the other (times on a time-valued one), with gaps where a value is missing or is not a number,
 * unsure values marked and values far off the others left out of the lines and their axes (chartData.ts), in the
 * current theme's colours, and PNG and SVG downloads (chartSvg.ts).
 */
export const SeriesChart = memo(function SeriesChart({ uploadName, times, proof }: Props) {
  const theme = useAppSelector(selectTheme);
  const dispatch = useAppDispatch();
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [state, setState] = useState<'loading' | 'drawn' | 'failed'>('loading');
  const series = useMemo(() => proof.map((p) => p.series), [proof]);
  const model = useMemo(() => chartModel(times, series, proof.map(cellsOf)), [times, series, proof]);
  const caption = marksCaption(model);

  useEffect(() => {
    let cancelled = false;
    let chart: Drawn = null;
    const canvas = canvasRef.current;
    if (!canvas || !model.hasNumbers) return;
    if (!canvas.getContext('2d')) {
      setState('failed');
      return;
    }
    import('./lineChart')
      .then(({ drawLineChart }) => {
        if (cancelled) return;
        // The theme attribute is set by the layout in an effect of its own: read the colours once it is there.
        chart = drawLineChart(canvas, model, themeColours());
        setState('drawn');
      })
      .catch(() => {
        if (!cancelled) setState('failed');
      });
    return () => {
      cancelled = true;
      chart?.destroy();
    };
  }, [model, theme]);

  // The files are drawn from the same model as an SVG in the theme's colours; the PNG is that SVG at twice its size.
  const chartTitle = `${uploadName}: ${series.map((s) => s.name).join(', ')}`;
  const downloadSvg = () => downloadFile(chartFileName(uploadName, 'svg'), chartSvg(model, themeColours(), chartTitle), 'image/svg+xml');
  const downloadPng = () => {
    svgToPng(chartSvg(model, themeColours(), chartTitle), chartSvgSize(model))
      .then((blob) => downloadFile(chartFileName(uploadName, 'png'), blob, 'image/png'))
      .catch(() => dispatch(toastShown('The chart could not be saved as a PNG: try the SVG.', 'error')));
  };

  return (
    <section className="card numerical-chart" aria-labelledby="numerical-chart-title">
      <div className="numerical-section__head">
        <h2 id="numerical-chart-title">Chart</h2>
        <div className="numerical-actions">
          <button type="button" className="btn btn--secondary btn--sm" onClick={downloadPng} disabled={!model.hasNumbers}>
            Download chart (PNG)
          </button>
          <button type="button" className="btn btn--secondary btn--sm" onClick={downloadSvg} disabled={!model.hasNumbers}>
            Download chart (SVG)
          </button>
        </div>
      </div>
      {!model.hasNumbers && <p className="muted small">None of the selected values is a number yet: try Numbers only in a series' edit panel.</p>}
      {state === 'failed' && <p className="alert alert--danger">The chart could not be drawn.</p>}
      <div className="numerical-chart__canvas" hidden={!model.hasNumbers} style={{ '--chart-panels': model.axes.length } as CSSProperties}>
        <canvas
          ref={canvasRef}
          role="img"
          aria-label={`Line chart of ${series.map((s) => s.name).join(', ')} over ${model.axis === 'time' ? 'time' : 'frames'}; axes: ${model.axes.map((a) => a.title).join(', ')}`}
        />
      </div>
      {model.hasNumbers && caption && <p className="muted small numerical-chart__marks">{caption}</p>}
    </section>
  );
});
