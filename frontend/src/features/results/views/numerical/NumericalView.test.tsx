import { act, fireEvent, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../../lib/store';
import { KEYS } from '../../../../lib/storage';
import { viewFromDetails, type ResultsView } from '../../model';
import { sampleDetails } from '../../testing';
import NumericalView from './NumericalView';

const quad = (x: number, y: number, w: number, h: number) => [
  { x, y },
  { x: x + w, y },
  { x: x + w, y: y + h },
  { x, y: y + h },
];
const line = (text: string, x: number, y: number, w: number, confidence?: number) => ({
  text,
  vertices: quad(x, y, w, 60),
  area: w * 60,
  blockType: 'LINE',
  ...(confidence === undefined ? {} : { confidence }),
});

/** The charger screen, one frame a second: battery and power change every second; a faint logo is read with low confidence. */
function chargerView(seconds: number, options: { confidence?: boolean; demo?: boolean } = {}): ResultsView {
  const c = options.confidence ? 90 : undefined;
  const base = sampleDetails({ uploadName: 'Charger: evening' });
  const details = {
    ...base,
    results: {
      ...base.results,
      results: Array.from({ length: seconds }, (_, s) => [
        line('DC FAST CHARGER', 80, 40, 420, c),
        line(`Battery ${20 + s}%`, 80, 180, 360, c),
        line(`Power ${150 - s} kW`, 80, 340, 380, c),
        ...(options.confidence ? [line('logo', 1100, 640, 80, 55)] : []),
      ]),
      linesByFrame: Array.from({ length: seconds }, () => []),
      ocrResults: Array.from({ length: seconds }, (_, s) => ({ t: s, fileIndex: s, text: '', detections: [] })),
    },
    urls: Array.from({ length: seconds }, (_, s) => `http://files.test/${String(s * 1000).padStart(10, '0')}.jpg`),
  };
  const view = viewFromDetails('ch-1', details, { demo: options.demo });
  return { ...view, frames: view.frames.map((f) => ({ ...f, space: { width: 1280, height: 720 } })) };
}

/** A block `h` pixels high (line's blocks are 60). */
const sized = (block: ReturnType<typeof line>, h: number) => {
  const { x, y } = block.vertices[0]!;
  const w = block.vertices[1]!.x - x;
  return { ...block, vertices: quad(x, y, w, h), area: w * h };
};

/** Frames of an upload from each frame's blocks, one a second, 1280x720. */
function viewOf(name: string, frames: ReturnType<typeof line>[][]): ResultsView {
  const base = sampleDetails({ uploadName: name });
  const details = {
    ...base,
    results: {
      ...base.results,
      results: frames,
      linesByFrame: frames.map(() => []),
      ocrResults: frames.map((_, s) => ({ t: s, fileIndex: s, text: '', detections: [] })),
    },
    urls: frames.map((_, s) => `http://files.test/${String(s * 1000).padStart(10, '0')}.jpg`),
  };
  const view = viewFromDetails('in-1', details);
  return { ...view, frames: view.frames.map((f) => ({ ...f, space: { width: 1280, height: 720 } })) };
}

/**
 * A phone-filmed instrument: TEMP with its label to the left, then SPEED and ALTITUDE side by side under their
 * labels (ALTITUDE's smaller digits a little higher). TEMP was not read on frame 3, and read 3722 for 37.2 on frame 6.
 */
const TEMPERATURE = ['37.0', '37.1', null, '37.2', '37.2', '3722', '37.3', '37.3'];
function instrumentView(): ResultsView {
  return viewOf(
    'Instrument',
    TEMPERATURE.map((temperature, s) => [
      line('TEMP', 80, 180, 120, 93),
      ...(temperature === null ? [] : [line(temperature, 420, 170, 200, 92)]),
      sized(line('SPEED', 60, 560, 110, 95), 30),
      sized(line('ALTITUDE', 760, 560, 160, 95), 30),
      sized(line(`${1000 + 137 * s} KM/H`, 67, 610, 355, 94), 50),
      sized(line(`${(2 + 1.7 * s).toFixed(1)} KM`, 765, 606, 225, 94), 46),
    ]),
  );
}

function renderView(view: ResultsView) {
  const store = makeStore();
  render(
    <Provider store={store}>
      <NumericalView view={view} />
    </Provider>,
  );
  return { toasts: () => store.getState().ui.toasts.map((t) => t.text) };
}

let saved: { name: string; text: Promise<string> }[] = [];
beforeEach(() => {
  saved = [];
  localStorage.setItem(KEYS.viewedHowTo, 'true');
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (saved.push({ name: '', text: blob.text() }), 'blob:x'), revokeObjectURL: () => {} }));
  // jsdom draws nothing: the chart says so instead of calling Chart.js (the browser test sees the real chart).
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(null);
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved[saved.length - 1]!.name = this.download;
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

/** A block's button in the "Blocks on this frame" list. */
const chip = (name: string) => within(screen.getByRole('region', { name: /Blocks on this frame/ })).getByRole('button', { name });
/** A block's box on the picture. */
const box = (text: string) => document.querySelector(`polygon[data-text="${text}"]`) as SVGPolygonElement;
/** What the last "Find the numbers" click found. */
const findResult = () => within(screen.getByRole('region', { name: 'Numbers in one click' })).getByRole('status');
const selectedTable = () => screen.getByRole('heading', { name: 'Selected Blocks' }).closest('section') as HTMLElement;
const exportSection = () => screen.getByRole('heading', { name: 'Results to Export' }).closest('section') as HTMLElement;
/** A value's button in Results to Export (frame 1-based). */
const cell = (series: string, frame: number) => within(exportSection()).getByRole('button', { name: new RegExp(`^${series.replace(/[()]/g, '\\$&')}, frame ${frame}: `) });
const exportRows = () => {
  const table = within(screen.getByRole('heading', { name: 'Results to Export' }).closest('section') as HTMLElement).getByRole('table');
  return within(table)
    .getAllByRole('row')
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent));
};

describe('NumericalView', () => {
  it('makes a clicked box a series named after its text, follows it over every frame, and exports it', async () => {
    renderView(chargerView(4));
    const user = userEvent.setup();
    expect(screen.queryByRole('button', { name: 'Export as csv' })).not.toBeInTheDocument();

    expect(box('Battery 20%')).toHaveClass('numerical-box--red');
    await user.click(box('Battery 20%'));
    expect(box('Battery 20%')).toHaveClass('numerical-box--green');
    expect(chip('Battery 20%')).toHaveAttribute('aria-pressed', 'true');
    expect(box('Power 150 kW')).toHaveClass('numerical-box--red');
    const row = within(selectedTable()).getByRole('row', { name: /Battery 20% Block/ });
    expect(row).toHaveTextContent('4 (100%)');
    expect(row).toHaveTextContent('Battery 20%');
    // It opens for editing.
    expect(screen.getByLabelText('Series name')).toHaveValue('Battery 20% Block');
    expect(exportRows()).toEqual([
      ['Frame', 'Time', 'Battery 20% Block'],
      ['1', '0:00', 'Battery 20%'],
      ['2', '0:01', 'Battery 21%'],
      ['3', '0:02', 'Battery 22%'],
      ['4', '0:03', 'Battery 23%'],
    ]);

    // Cleaning: numbers only, and a new name.
    await user.click(screen.getByLabelText('Numbers only'));
    await user.clear(screen.getByLabelText('Series name'));
    await user.type(screen.getByLabelText('Series name'), 'Battery');
    expect(exportRows()[0]).toEqual(['Frame', 'Time', 'Battery']);
    expect(exportRows()[3]).toEqual(['3', '0:02', '22']);

    // The chart of the selection appears under the tables.
    expect(screen.getByRole('heading', { name: 'Chart' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Line chart of Battery over time; axes: %' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Export as csv' }));
    expect(saved[0]!.name).toBe('Charger- evening-results.csv');
    expect((await saved[0]!.text).split('\r\n')).toEqual(['Frame,Time,"Battery"', '1,0:00,20', '2,0:01,21', '3,0:02,22', '4,0:03,23', '']);
  });

  it('picks blocks with the keyboard, orders export columns and chart series top to bottom, and shows the current frame\'s text', async () => {
    renderView(chargerView(3));
    const user = userEvent.setup();
    act(() => chip('Power 150 kW').focus());
    // The focused block is outlined on the picture.
    expect(box('Power 150 kW')).toHaveClass('numerical-box--highlight');
    await user.keyboard('{Enter}');
    act(() => chip('Battery 20%').focus());
    await user.keyboard(' ');
    expect(chip('Battery 20%')).toHaveAttribute('aria-pressed', 'true');
    expect(exportRows()[0]).toEqual(['Frame', 'Time', 'Battery 20% Block', 'Power 150 kW Block']);
    // Power was picked first, but Battery sits above it on the screen: the table lists it first, as the CSV does.
    expect(within(selectedTable()).getAllByRole('row').map((r) => r.textContent)).toEqual([expect.any(String), expect.stringContaining('Battery'), expect.stringContaining('Power')]);
    expect(screen.getByRole('img', { name: 'Line chart of Battery 20% Block, Power 150 kW Block over time; axes: %, kW' })).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(within(selectedTable()).getByRole('row', { name: /Power 150 kW Block/ })).toHaveTextContent('Power 149 kW');
  });

  it('locks a series: its box does nothing, it cannot be removed until unlocked, and it survives new tracking settings', async () => {
    renderView(chargerView(3));
    const user = userEvent.setup();
    await user.click(chip('Battery 20%'));
    await user.click(chip('Power 150 kW'));
    await user.click(screen.getByRole('button', { name: 'Lock Battery 20% Block' }));
    // Locking closes the editor.
    expect(screen.queryByLabelText('Series name')).not.toBeInTheDocument();
    expect(within(selectedTable()).getByRole('row', { name: /Battery 20% Block/ })).toHaveTextContent('Locked');
    expect(box('Battery 20%')).toHaveClass('numerical-box--red', 'numerical-box--locked');
    expect(chip('Battery 20%, locked')).toHaveAttribute('aria-disabled', 'true');
    await user.click(box('Battery 20%'));
    await user.click(chip('Battery 20%, locked'));
    expect(within(selectedTable()).getAllByRole('row')).toHaveLength(3);

    // A locked series is not offered Remove; the unlocked one is.
    expect(screen.queryByRole('button', { name: 'Remove Battery 20% Block' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Remove Power 150 kW Block' })).toBeInTheDocument();

    // A tracking setting changes: the unlocked Power series goes, the locked Battery series stays.
    await user.click(screen.getByRole('button', { name: 'Edit Power 150 kW Block' }));
    expect(screen.getByLabelText('Series name')).toHaveValue('Power 150 kW Block');
    const disappearance = screen.getByLabelText('Allowable Disappearance');
    fireEvent.change(disappearance, { target: { value: '3' } });
    expect(screen.getByText('3 frames')).toBeInTheDocument();
    expect(within(selectedTable()).queryByRole('row', { name: /Power/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Series name')).not.toBeInTheDocument();
    expect(within(selectedTable()).getByRole('row', { name: /Battery 20% Block/ })).toHaveTextContent('3 (100%)');

    // Unlocked, it follows tracking again under its original id, and can be removed.
    await user.click(screen.getByRole('button', { name: 'Unlock Battery 20% Block' }));
    expect(box('Battery 20%')).toHaveClass('numerical-box--green');
    await user.click(screen.getByRole('button', { name: 'Remove Battery 20% Block' }));
    expect(within(selectedTable()).queryAllByRole('row')).toHaveLength(0);
    expect(box('Battery 20%')).toHaveClass('numerical-box--red');
  });

  it('shows the tracking sliders with the spec ranges, and Required Confidence only for detections with a confidence', async () => {
    renderView(chargerView(2));
    expect(screen.getByLabelText('Similarity Requirement')).toMatchObject({ min: '75', max: '100', step: '0.5', value: '85' });
    expect(screen.getByLabelText('Allowable Disappearance')).toMatchObject({ min: '0', max: '10', value: '1' });
    expect(screen.getByLabelText('Minimum Block Size')).toMatchObject({ min: '0', max: '1', step: '0.05', value: '0' });
    expect(screen.getByText('All')).toBeInTheDocument();
    expect(screen.queryByLabelText('Required Confidence')).not.toBeInTheDocument();
    fireEvent.change(screen.getByLabelText('Minimum Block Size'), { target: { value: '0.95' } });
    expect(screen.getByText('95% of the largest block')).toBeInTheDocument();
    // Sides (square roots of the areas): 159 for the largest block, 151 for Power, 147 for Battery, under 0.95 x 159.
    expect([...document.querySelectorAll('polygon')].map((p) => p.dataset.text)).toEqual(['DC FAST CHARGER', 'Power 150 kW']);
  });

  it('hides low-confidence blocks under the Required Confidence', () => {
    renderView(chargerView(2, { confidence: true }));
    const slider = screen.getByLabelText('Required Confidence');
    expect(slider).toMatchObject({ min: '50', max: '100', value: '50' });
    expect(chip('logo')).toBeInTheDocument();
    fireEvent.change(slider, { target: { value: '60' } });
    expect(box('logo')).toBeNull();
    expect(within(screen.getByRole('region', { name: /Blocks on this frame/ })).getAllByRole('button').map((b) => b.textContent)).toEqual([
      'DC FAST CHARGER',
      'Battery 20%',
      'Power 150 kW',
    ]);
  });

  it('opens the how-to until it has been seen, always in the demo, and again from the ? button', async () => {
    localStorage.removeItem(KEYS.viewedHowTo);
    const user = userEvent.setup();
    const { unmount } = render(
      <Provider store={makeStore()}>
        <NumericalView view={chargerView(2)} />
      </Provider>,
    );
    const dialog = screen.getByRole('dialog', { name: 'How to use the Numerical Tab' });
    expect(within(dialog).getAllByRole('listitem')).toHaveLength(5);
    await user.click(within(dialog).getByRole('button', { name: 'Got it!' }));
    expect(localStorage.getItem(KEYS.viewedHowTo)).toBe('true');
    unmount();

    renderView(chargerView(2));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'How to use the Numerical Tab' }));
    expect(screen.getByRole('dialog', { name: 'How to use the Numerical Tab' })).toBeInTheDocument();
  });

  it('in the demo, opens the how-to by itself on the first visit only, and shows the loading notice while the frame\'s image loads', async () => {
    localStorage.removeItem(KEYS.viewedHowTo);
    const { unmount } = render(
      <Provider store={makeStore()}>
        <NumericalView view={chargerView(2, { demo: true })} />
      </Provider>,
    );
    await userEvent.setup().click(within(screen.getByRole('dialog', { name: 'How to use the Numerical Tab' })).getByRole('button', { name: 'Got it!' }));
    unmount();

    renderView(chargerView(2, { demo: true }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'How to use the Numerical Tab' })).toBeInTheDocument();
    expect(screen.getByText('Loading Image')).toBeInTheDocument();
    expect(screen.getByText('This could take a while for 100+ images')).toBeInTheDocument();
  });
  it('leaves the how-to closed on an upload with no text, for the No Text Results Found dialog to speak alone', () => {
    localStorage.removeItem(KEYS.viewedHowTo);
    renderView(viewOf('Blank', [[], [], []]));
    expect(screen.queryByRole('dialog', { name: 'How to use the Numerical Tab' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'How to use the Numerical Tab' })).toBeInTheDocument();
  });
  it('finds every changing number in one click, named after its label, locked, charted and exported, and adds nothing twice', async () => {
    renderView(chargerView(4));
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent('Found 2 series: Battery (%), Power (kW).');
    const rows = within(selectedTable()).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('th')!.textContent)).toEqual(['Battery (%)Locked', 'Power (kW)Locked']);
    expect(exportRows()[0]).toEqual(['Frame', 'Time', 'Battery (%)', 'Power (kW)']);
    expect(exportRows()[4]).toEqual(['4', '0:03', '23', '147']);
    expect(screen.getByRole('img', { name: 'Line chart of Battery (%), Power (kW) over time; axes: %, kW' })).toBeInTheDocument();
    // The static header is not a series.
    expect(box('DC FAST CHARGER')).toHaveClass('numerical-box--red');

    await user.click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent('No new series found');
    expect(within(selectedTable()).getAllByRole('row')).toHaveLength(3);

    // A person can still change what was found: unlock and remove one, and find it again.
    await user.click(screen.getByRole('button', { name: 'Unlock Power (kW)' }));
    await user.click(screen.getByRole('button', { name: 'Remove Power (kW)' }));
    await user.click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent('Found 1 series: Power (kW).');
  });

  it('names side-by-side readings after the labels above them and keeps the screen\'s order, left to right', async () => {
    renderView(instrumentView());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent('Found 3 series: TEMP, SPEED (km/h), ALTITUDE (km).');
    expect(exportRows()[0]).toEqual(['Frame', 'Time', 'TEMP', 'SPEED (km/h)', 'ALTITUDE (km)']);
    const rows = within(selectedTable()).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.querySelector('th')!.textContent)).toEqual(['TEMPLocked', 'SPEED (km/h)Locked', 'ALTITUDE (km)Locked']);
  });

  it('marks a blank and a value far off the others as unsure, in the table and on the chart, and counts them', async () => {
    renderView(instrumentView());
    await userEvent.setup().click(screen.getByRole('button', { name: 'Find the numbers' }));
    const blank = cell('TEMP', 3);
    expect(blank).toHaveAttribute('data-state', 'unsure');
    expect(blank).toHaveAttribute('title', 'no value read');
    expect(blank).toHaveTextContent('–blank');
    const spike = cell('TEMP', 6);
    expect(spike).toHaveAttribute('data-state', 'unsure');
    expect(spike).toHaveAttribute('title', 'jumps from 37.2 to 3722: digits run together or decimal point lost?');
    expect(cell('TEMP', 5)).toHaveAttribute('data-state', 'sure');
    expect(cell('SPEED (km/h)', 3)).toHaveAttribute('data-state', 'sure');
    expect(within(exportSection()).getByRole('status')).toHaveTextContent('2 unsure values');
    expect(screen.getByRole('button', { name: 'Next unsure value (2)' })).toBeEnabled();
    // The chart leaves the 3722 out of the line and its axis, and says what its marks are.
    expect(screen.getByText(/^Marked in orange: 1 value far off the others, left out of the line .*; 1 frame without a value/)).toBeInTheDocument();
  });

  it('visits the blank and the value far off with "Next unsure value" and takes the values typed for them', async () => {
    renderView(instrumentView());
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Find the numbers' }));
    await user.click(screen.getByRole('button', { name: 'Next unsure value (2)' }));

    // The blank first: nothing was read there, so the crop shows where TEMP usually is, and the field is empty.
    let proofreader = screen.getByRole('region', { name: 'TEMP, Frame 3 (0:02)' });
    expect(within(proofreader).getByRole('img', { name: 'Frame 3 (0:02) where TEMP usually is' })).toBeInTheDocument();
    expect(proofreader).toHaveTextContent('no value read');
    expect(proofreader).toHaveTextContent('Nothing was read here on this frame');
    expect(screen.getByRole('img', { name: 'Frame 3 (0:02)' })).toBeInTheDocument();
    const field = within(proofreader).getByLabelText('Value on the picture');
    expect(field).toHaveFocus();
    expect(field).toHaveValue('');
    await user.type(field, '37.1{Enter}');

    // Then the 3722, prefilled with its reading.
    proofreader = screen.getByRole('region', { name: 'TEMP, Frame 6 (0:05)' });
    expect(within(proofreader).getByRole('img', { name: 'Frame 6 (0:05) around TEMP' })).toBeInTheDocument();
    expect(proofreader).toHaveTextContent('digits run together');
    const value = within(proofreader).getByLabelText('Value on the picture');
    expect(value).toHaveFocus();
    expect(value).toHaveValue('3722');
    await user.clear(value);
    await user.type(value, '37.2{Enter}');

    // That was the last: the proofreader closes, both cells read as corrected, nothing is marked any more.
    expect(screen.queryByRole('region', { name: /^TEMP, Frame/ })).not.toBeInTheDocument();
    expect(cell('TEMP', 3)).toHaveAttribute('data-state', 'corrected');
    expect(cell('TEMP', 3)).toHaveTextContent('37.1corrected');
    expect(cell('TEMP', 6)).toHaveTextContent('37.2corrected');
    expect(within(exportSection()).getByRole('status')).toHaveTextContent('No unsure values.');
    expect(screen.getByRole('button', { name: 'Next unsure value' })).toBeDisabled();
    expect(screen.queryByText(/^Marked in orange/)).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Export as csv' }));
    const csv = (await saved.at(-1)!.text).split('\r\n');
    expect(csv.slice(1, 9).map((row) => row.split(',')[2])).toEqual(['37.0', '37.1', '37.1', '37.2', '37.2', '37.2', '37.3', '37.3']);
  });

  it('says no text was found on a frame with no boxes, instead of asking for a click on one', async () => {
    renderView(viewOf('Meter', [[], [], [line('88.8', 80, 180, 200)]]));
    expect(screen.queryByText(/Click a box/)).toBeNull();
    expect(within(selectedTable()).getByText('No blocks selected yet, and no text was found on this frame to pick from.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent(
      'No numbers that change over the video were found, and no text was found on this frame: move to a frame with text to pick a block yourself.',
    );
    expect(screen.queryByText(/Click a box/)).toBeNull();
  });

  it('points to what to try when no frame has any text', async () => {
    renderView(viewOf('Blank', [[], []]));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent('No text was found on any frame, so there are no numbers to find. See “What to try” above.');
  });

  it('says so when no number changes', async () => {
    const view = chargerView(1);
    renderView(view);
    await userEvent.setup().click(screen.getByRole('button', { name: 'Find the numbers' }));
    expect(findResult()).toHaveTextContent('No numbers that change over the video were found.');
    expect(within(selectedTable()).queryAllByRole('row')).toHaveLength(0);
  });
});
