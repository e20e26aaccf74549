import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { rectVertices } from '@frametext/text-analysis';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../../lib/store';
import { viewFromDetails, type ResultsView } from '../../model';
import { sampleDetails } from '../../testing';
import RegionView from './RegionView';

const line = (text: string, x: number, y: number, w: number, h: number, confidence?: number) => ({ text, vertices: rectVertices({ x, y, w, h }), area: w * h, blockType: 'LINE', ...(confidence === undefined ? {} : { confidence }) });

/**
 * A 1280x720 captions video, one frame a second: a channel name at the top, captions near the bottom (their lines'
 * left edge, top and width in pixels: `at`).
 */
function captionsView(captions: string[], confidence?: number, at = { x: 400, y: 580, w: 480 }): ResultsView {
  const base = sampleDetails({ mediaContent: 'captions', uploadName: 'Talk: part 1' });
  const details = {
    ...base,
    results: {
      ...base.results,
      results: captions.map((c) => [line('CHANNEL 5', 40, 30, 220, 40, confidence), ...(c ? c.split('\n').map((row, i) => line(row, at.x, at.y + i * 50, at.w, 40, confidence)) : [])]),
      linesByFrame: captions.map(() => []),
      ocrResults: captions.map((text, i) => ({ t: i, fileIndex: i, text, detections: [] })),
    },
    urls: captions.map((_, i) => `http://files.test/${String(i * 1000).padStart(10, '0')}.jpg`),
  };
  const view = viewFromDetails('cap-1', details);
  return { ...view, frames: view.frames.map((f) => ({ ...f, space: { width: 1280, height: 720 } })) };
}

function renderView(view: ResultsView) {
  render(
    <Provider store={makeStore()}>
      <RegionView view={view} />
    </Provider>,
  );
}

/** The file's text with any byte-order mark kept (Blob.text() would drop it). */
const bytesAsText = async (blob: Blob) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(await blob.arrayBuffer());

let saved: { name: string; text: Promise<string> }[] = [];
beforeEach(() => {
  saved = [];
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (saved.push({ name: '', text: bytesAsText(blob) }), 'blob:x'), revokeObjectURL: () => {} }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved[saved.length - 1]!.name = this.download;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const nowPanel = () => screen.getByRole('heading', { name: /Text in the boxes/ }).closest('section') as HTMLElement;
const tableRows = () => within(screen.getByRole('table')).getAllByRole('row').map((r) => within(r).queryAllByRole(r.querySelector('th') ? 'columnheader' : 'cell').map((c) => c.textContent));

describe('RegionView', () => {
  it('reads the text wholly inside the green box, frame by frame, in the panel and the table', () => {
    renderView(captionsView(['Hello there', 'Hello there', 'Two rows\nof text', '']));
    expect(within(nowPanel()).getByText('Green')).toBeInTheDocument();
    expect(nowPanel()).toHaveTextContent('Hello there');
    expect(nowPanel()).not.toHaveTextContent('CHANNEL 5');
    expect(tableRows()).toEqual([
      ['Frame', 'Time', 'Green'],
      ['1', '0:00', 'Hello there'],
      ['2', '0:01', 'Hello there'],
      ['3', '0:02', 'Two rows | of text'],
      ['4', '0:03', ''],
    ]);
  });

  it('starts the green box on the band where captions come and go, descenders and long lines included, and offers every text zone', async () => {
    const user = userEvent.setup();
    // Low, wide captions: under the usual box's bottom (0.96 of the height) and wider than its two thirds.
    renderView(captionsView(['Keep going, says Peggy', 'Everybody pays, apparently', 'Yes, agreed', 'Sparkling lights glow'], undefined, { x: 60, y: 668, w: 1160 }));
    expect(nowPanel()).toHaveTextContent('Keep going, says Peggy');
    expect(tableRows().map((row) => row[2])).toEqual(['Green', 'Keep going, says Peggy', 'Everybody pays, apparently', 'Yes, agreed', 'Sparkling lights glow']);
    const zones = screen.getByRole('region', { name: 'Text zones found' });
    expect(within(zones).getAllByRole('button').map((b) => b.textContent)).toEqual(['Bottom band', 'Top-left corner']);
    await user.click(within(zones).getByRole('button', { name: 'Top-left corner' }));
    expect(nowPanel()).toHaveTextContent('CHANNEL 5');
    expect(nowPanel()).not.toHaveTextContent('Peggy');
  });

  it('adds a column per enabled box and moves the selection when the selected box is turned off', async () => {
    const user = userEvent.setup();
    renderView(captionsView(['Hello there']));
    await user.click(screen.getByRole('checkbox', { name: 'Blue' }));
    expect(screen.getByRole('radio', { name: 'Edit the Blue box' })).toBeChecked();
    expect(tableRows()[0]).toEqual(['Frame', 'Time', 'Green', 'Blue']);
    await user.click(screen.getByRole('checkbox', { name: 'Blue' }));
    expect(screen.getByRole('radio', { name: 'Edit the Green box' })).toBeChecked();
    await user.click(screen.getByRole('checkbox', { name: 'Green' }));
    expect(screen.getByRole('radio', { name: 'Edit the Green box' })).toBeDisabled();
    expect(screen.getByText('Turn on a box to read the text inside it.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Export CSV' })).toBeDisabled();
  });

  it('moves the focused box with arrow keys and resizes it with Shift and arrows', () => {
    renderView(captionsView(['Hello there']));
    const box = screen.getByRole('button', { name: 'Green box' });
    act(() => box.focus());
    // 30 steps of 1% up: the box (0.74..0.96 of the height) leaves the caption at 580..620 px of 720.
    for (let i = 0; i < 30; i++) fireEvent.keyDown(box, { key: 'ArrowUp' });
    expect(nowPanel()).toHaveTextContent('Nothing wholly inside this box.');
    expect(screen.getByText(/No text lies wholly inside the boxes yet/)).toBeInTheDocument();
    // Growing it 30 steps downwards takes the caption in again.
    for (let i = 0; i < 30; i++) fireEvent.keyDown(box, { key: 'ArrowDown', shiftKey: true });
    expect(nowPanel()).toHaveTextContent('Hello there');
  });

  it('filters blocks by character length and area, and by confidence only when there is one', () => {
    renderView(captionsView(['Hello there', 'Hi']));
    expect(screen.queryByRole('slider', { name: /Required confidence/ })).not.toBeInTheDocument();
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Min characters' }), { target: { value: '3' } });
    expect(tableRows()[2]).toEqual(['2', '0:01', '']);
    fireEvent.change(screen.getByRole('spinbutton', { name: 'Max px²' }), { target: { value: '1000' } });
    expect(tableRows()[1]).toEqual(['1', '0:00', '']);
  });

  it('drops blocks under the required confidence (50 to 100, default 50)', () => {
    renderView(captionsView(['Hello there'], 0.7));
    const slider = screen.getByRole('slider', { name: /Required confidence/ });
    expect(slider).toHaveValue('50');
    expect(slider).toHaveAttribute('min', '50');
    expect(slider).toHaveAttribute('max', '100');
    expect(nowPanel()).toHaveTextContent('Hello there');
    fireEvent.change(slider, { target: { value: '71' } });
    expect(nowPanel()).toHaveTextContent('Nothing wholly inside this box.');
  });

  it('exports <upload name>-captions.csv by frame and .txt by caption with a byte-order mark, and SRT and WebVTT of the chosen box', async () => {
    const user = userEvent.setup();
    renderView(captionsView(['Hello there', 'Hello there', 'Two rows\nof text', '']));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    await user.click(screen.getByRole('button', { name: 'Export TXT' }));
    await user.click(screen.getByRole('button', { name: 'Export SRT' }));
    await user.click(screen.getByRole('button', { name: 'Export WebVTT' }));
    expect(saved.map((s) => s.name)).toEqual(['Talk- part 1-captions.csv', 'Talk- part 1-captions.txt', 'Talk- part 1-green.srt', 'Talk- part 1-green.vtt']);
    expect(await saved[0]!.text).toBe('\uFEFFFrame,Time,Green\r\n1,0:00,Hello there\r\n2,0:01,Hello there\r\n3,0:02,Two rows | of text\r\n4,0:03,\r\n');
    expect(await saved[1]!.text).toBe('\uFEFFGreen 0:00.0 to 0:02.0\nHello there\n\nGreen 0:02.0 to 0:03.0\nTwo rows\nof text\n');
    expect(await saved[2]!.text).toBe('1\n00:00:00,000 --> 00:00:02,000\nHello there\n\n2\n00:00:02,000 --> 00:00:03,000\nTwo rows\nof text\n');
    expect(await saved[3]!.text).toBe('WEBVTT\n\n00:00:00.000 --> 00:00:02.000\nHello there\n\n00:00:02.000 --> 00:00:03.000\nTwo rows\nof text\n');
  });

  it('makes subtitles of the box chosen for them', async () => {
    const user = userEvent.setup();
    renderView(captionsView(['Hello there']));
    await user.click(screen.getByRole('checkbox', { name: 'Yellow' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Subtitles from' }), 'Yellow box');
    await user.click(screen.getByRole('button', { name: 'Export SRT' }));
    expect(saved[0]!.name).toBe('Talk- part 1-yellow.srt');
    expect(await saved[0]!.text).toBe('');
  });
});
