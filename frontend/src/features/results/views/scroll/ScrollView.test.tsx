import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Detection } from '@frametext/contracts';
import { rectVertices } from '@frametext/text-analysis';
import type { ResultsFrame, ResultsView } from '../../model';
import ScrollView from './ScrollView';

/*
 * A list scrolling up by 60 px a frame on 1000 x 400 frames: items 100 px apart, a title at the left and a price at
 * the right. Frame boxes are in the frames' own space, so no picture has to load.
 */

const SPACE = { width: 1000, height: 400 };
const NAMES = ['Blue Kettle', 'Red Lamp', 'Oak Chair', 'Wool Scarf', 'Glass Vase', 'Copper Pot', 'Linen Towel'];
const title = (n: number) => `Item 0${n} ${NAMES[n - 1]}`;
const price = (n: number) => `$ ${n}9.99`;

function frameAt(index: number): ResultsFrame {
  const detections: Detection[] = [];
  NAMES.forEach((_, i) => {
    const top = i * 100 - index * 60;
    const lines: [string, number, number, number][] = [
      [title(i + 1), 50, top + 20, 300],
      [price(i + 1), 880, top + 60, 100],
    ];
    for (const [text, x, y, w] of lines) {
      if (y >= 0 && y + 30 <= SPACE.height) detections.push({ text, vertices: rectVertices({ x, y, w, h: 30 }), area: w * 30, blockType: 'LINE' });
    }
  });
  return { index, imageUrl: `http://files.test/${index}.jpg`, t: index * 2, text: detections.map((d) => d.text).join('\n'), detections, lines: [], space: SPACE };
}

const view: ResultsView = {
  uploadID: 'u-scroll',
  uploadName: 'Shop list',
  uploadedAt: null,
  mediaContent: 'numerical',
  processingType: 'Numerical',
  format: 'Video',
  frames: [0, 1, 2, 3].map(frameAt),
  resultsUrl: null,
  demo: false,
  local: true,
  timeDecimals: 0,
  hasConfidence: false,
};

/** What downloadFile saved: the link's file name and the blob's text. */
const downloads: { name: string; blob: Blob }[] = [];

beforeEach(() => {
  downloads.length = 0;
  // jsdom lays nothing out: the overlay covers 1000 x 400 screen pixels at the origin, one per frame pixel.
  vi.spyOn(SVGElement.prototype, 'getBoundingClientRect').mockReturnValue({ left: 0, top: 0, width: 1000, height: 400, right: 1000, bottom: 400, x: 0, y: 0, toJSON: () => ({}) });
  let last: Blob | null = null;
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => ((last = blob), 'blob:x'), revokeObjectURL: () => {} }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push({ name: this.download, blob: last! });
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

const templateRect = () => screen.getByTestId('scroll-template').querySelector('.scroll-template__box')!;

function drag(target: Element, from: [number, number], to: [number, number]) {
  fireEvent.pointerDown(target, { clientX: from[0], clientY: from[1], button: 0, pointerId: 1 });
  fireEvent.pointerMove(target, { clientX: (from[0] + to[0]) / 2, clientY: (from[1] + to[1]) / 2, pointerId: 1 });
  fireEvent.pointerMove(target, { clientX: to[0], clientY: to[1], pointerId: 1 });
  fireEvent.pointerUp(target, { clientX: to[0], clientY: to[1], pointerId: 1 });
}

const rows = () => within(screen.getByRole('table')).getAllByRole('row').slice(1);
/** The lines a row shows in its Content column. */
const linesOf = (row: HTMLElement) => [...within(row).getAllByRole('cell')[2]!.querySelectorAll('.scroll-table__line')].map((l) => l.textContent);
const titles = () => rows().map((r) => linesOf(r)[0]);

/** Boxes item 2 on the first frame, locks it and detects the items. */
async function detectItems(user: ReturnType<typeof userEvent.setup>) {
  drag(screen.getByTestId('scroll-canvas'), [40, 100], [1000, 200]);
  await user.click(screen.getByRole('button', { name: 'Lock Template' }));
  await user.click(screen.getByRole('button', { name: 'Detect Items' }));
  await screen.findByRole('table');
}
const stat = (name: string) => within(screen.getByLabelText('Statistics')).getByText(name).nextElementSibling?.textContent;

describe('ScrollView', () => {
  it('draws and locks a template, detects the items on every frame, and lists them once each', async () => {
    render(<ScrollView view={view} />);
    const user = userEvent.setup();
    expect(screen.getByRole('button', { name: 'Detect Items' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Clear Results' })).toBeDisabled();

    // Draw a box around item 2 (top at 100 px on the first frame).
    drag(screen.getByTestId('scroll-canvas'), [40, 100], [1000, 200]);
    expect(templateRect()).toHaveAttribute('y', '100');
    expect(templateRect()).toHaveAttribute('height', '100');
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    expect(screen.getByText(/Locked on Frame 1 \(0:00\): 2 lines/)).toHaveTextContent(`${title(2)} / ${price(2)}`);
    expect(screen.queryByTestId('scroll-canvas')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');
    // Items 1 to 5 are whole on at least one frame (item 6 never shows its price): each appears once, in list order.
    expect(rows().map((r) => within(r).getAllByRole('cell')[2]!.querySelector('.scroll-table__line')!.textContent)).toEqual([1, 2, 3, 4, 5].map(title));
    expect(within(rows()[1]!).getAllByRole('cell').map((c) => c.textContent).slice(0, 5)).toEqual(['2', '1 (0:00)', `${title(2)}${price(2)}`, '2 frames', '100%']);
    expect(within(rows()[1]!).getAllByRole('button')[0]).toHaveAccessibleName('Show Frame 1 (0:00)');
    expect(stat('Unique items')).toBe('5');
    expect(stat('Frames scanned')).toBe('4');
    const found = Number(stat('Items found'));
    expect(stat('Duplicates dropped')).toBe(String(found - 5));
    expect(found).toBeGreaterThan(5);

    // Every sighting when duplicates are not ignored.
    await user.click(screen.getByRole('checkbox', { name: 'Ignore duplicates' }));
    expect(rows()).toHaveLength(found);
    expect(screen.getAllByText('Same as #2').length).toBeGreaterThan(0);
    expect(stat('Duplicates dropped')).toBe('0');

    // A frame button shows the item's frame with the item outlined.
    await user.click(within(rows().at(-1)!).getByRole('button'));
    expect(screen.getByText('Frame 4 (0:06) of 4')).toBeInTheDocument();
    expect(document.querySelector('.scroll-item--selected')).not.toBeNull();
  });

  it('exports the unique list as <upload name>-list-unique.csv with a byte-order mark, and the text file', async () => {
    render(<ScrollView view={view} />);
    const user = userEvent.setup();
    drag(screen.getByTestId('scroll-canvas'), [40, 100], [1000, 200]);
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloads[0]!.name).toBe('Shop list-list-unique.csv');
    const bytes = new Uint8Array(await downloads[0]!.blob.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const csv = (await downloads[0]!.blob.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(csv[0]).toBe('#,Frame,Time,Content,Match,Line 1,Line 2');
    expect(csv[1]).toBe(`1,1,0:00,${title(1)} | ${price(1)},100%,${title(1)},${price(1)}`);
    expect(csv).toHaveLength(5 + 2);

    await user.click(screen.getByRole('button', { name: 'Export TXT' }));
    expect(downloads[1]!.name).toBe('Shop list-list-unique.txt');
    expect(await downloads[1]!.blob.text()).toMatch(new RegExp(`^${title(1)}\n\\${price(1)}\n\n${title(2)}`));

    await user.click(screen.getByRole('checkbox', { name: 'Ignore duplicates' }));
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(downloads[2]!.name).toBe('Shop list-list-all.csv');
    expect((await downloads[2]!.blob.text()).split('\r\n')[0]).toContain('Unique item');
  });

  it('refuses a box without text, and unlocking or clearing removes the results', async () => {
    render(<ScrollView view={view} />);
    const user = userEvent.setup();
    // A box over the empty gap between the titles and the prices.
    drag(screen.getByTestId('scroll-canvas'), [500, 100], [700, 200]);
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    expect(screen.getByRole('alert')).toHaveTextContent('The box holds no text on this frame.');
    expect(screen.getByRole('button', { name: 'Detect Items' })).toBeDisabled();

    drag(screen.getByTestId('scroll-canvas'), [40, 0], [1000, 100]);
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Clear Results' }));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');
    await user.click(screen.getByRole('button', { name: 'Unlock Template' }));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Detect Items' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Lock Template' })).toBeEnabled();
  });

  it('moves the box with the arrow keys and resizes it with Shift, and says when settings changed', async () => {
    render(<ScrollView view={view} />);
    const user = userEvent.setup();
    const box = screen.getByRole('group', { name: /Template box/ });
    box.focus();
    const y = Number(templateRect().getAttribute('y'));
    const height = Number(templateRect().getAttribute('height'));
    await user.keyboard('{ArrowDown}{ArrowDown}');
    expect(Number(templateRect().getAttribute('y'))).toBeCloseTo(y + 8);
    await user.keyboard('{Shift>}{ArrowDown}{/Shift}');
    expect(Number(templateRect().getAttribute('height'))).toBeCloseTo(height + 4);

    // Sliders have the spec's ranges.
    const position = screen.getByRole('slider', { name: /Line position tolerance/ });
    expect([position.getAttribute('min'), position.getAttribute('max'), position.getAttribute('step'), (position as HTMLInputElement).value]).toEqual(['1', '30', '1', '10']);
    const threshold = screen.getByRole('slider', { name: /Duplicate threshold/ });
    expect([threshold.getAttribute('min'), threshold.getAttribute('max'), threshold.getAttribute('step'), (threshold as HTMLInputElement).value]).toEqual(['50', '100', '5', '85']);

    drag(screen.getByTestId('scroll-canvas'), [40, 100], [1000, 200]);
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');
    fireEvent.change(screen.getByRole('slider', { name: /Minimum similarity/ }), { target: { value: '90' } });
    expect(screen.getByText('The detection settings changed. Press Detect Items to apply them.')).toBeInTheDocument();
  });

  it('keeps the detected items with the work: found again on open, without pressing Detect Items', async () => {
    const reported: unknown[] = [];
    const work = { initial: null, changed: (document: unknown) => void reported.push(document) };
    const first = render(<ScrollView view={view} work={work} />);
    const user = userEvent.setup();
    drag(screen.getByTestId('scroll-canvas'), [40, 100], [1000, 200]);
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    // Locked, nothing detected: no detection is kept.
    expect(reported.at(-1)).not.toHaveProperty('detected');
    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');
    const kept = reported.at(-1);
    expect(kept).toMatchObject({ detected: { linePositionTolerance: 10, minSimilarity: 70 } });
    const found = stat('Items found');
    // Small: the settings it ran with, not the items.
    expect(JSON.stringify(kept).length).toBeLessThan(1000);
    first.unmount();

    render(<ScrollView view={view} work={{ initial: kept, changed: () => {} }} />);
    await screen.findByRole('table');
    expect(stat('Items found')).toBe(found);
    expect(stat('Unique items')).toBe('5');
    await user.click(screen.getByRole('button', { name: 'Clear Results' }));
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('forgets the detection when the results are cleared', async () => {
    const reported: unknown[] = [];
    render(<ScrollView view={view} work={{ initial: null, changed: (document: unknown) => void reported.push(document) }} />);
    const user = userEvent.setup();
    drag(screen.getByTestId('scroll-canvas'), [40, 100], [1000, 200]);
    await user.click(screen.getByRole('button', { name: 'Lock Template' }));
    await user.click(screen.getByRole('button', { name: 'Detect Items' }));
    await screen.findByRole('table');
    expect(reported.at(-1)).toHaveProperty('detected');
    await user.click(screen.getByRole('button', { name: 'Clear Results' }));
    expect(reported.at(-1)).not.toHaveProperty('detected');
    expect(reported.at(-1)).toMatchObject({ locked: { frameIndex: 0 } });
  });

  it('says how many items were found beside Detect Items and moves focus to the list', async () => {
    render(<ScrollView view={view} />);
    const user = userEvent.setup();
    await detectItems(user);
    expect(screen.getByText('5 items found')).toHaveAttribute('role', 'status');
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Detected items' })).toHaveFocus());
  });

  it('says on how many frames an item was seen, in a column of its own, and tags the items on the frame by row', async () => {
    render(<ScrollView view={view} />);
    const user = userEvent.setup();
    await detectItems(user);
    expect(screen.getByRole('columnheader', { name: 'Seen on' })).toBeInTheDocument();
    const first = within(rows()[0]!).getAllByRole('cell');
    expect(first[0]).toHaveTextContent(/^1$/);
    expect(first[3]).toHaveTextContent(/^1 frame$/);
    // On the picture: a tag that names the row, not a bare number beside the list's own text.
    expect([...document.querySelectorAll('.scroll-item__tag')].map((tag) => tag.textContent)).toEqual(['row 1', 'row 2', 'row 3', 'row 4']);
  });

  it('edits a row in place, removes one, merges one into the row above and undoes; the exports and the kept work follow', async () => {
    const reported: unknown[] = [];
    const first = render(<ScrollView view={view} work={{ initial: null, changed: (document: unknown) => void reported.push(document) }} />);
    const user = userEvent.setup();
    await detectItems(user);

    await user.click(screen.getByRole('button', { name: 'Edit item 2' }));
    const text = screen.getByRole('textbox', { name: 'Lines of item 2, one per line' });
    expect(text).toHaveValue(`${title(2)}\n${price(2)}`);
    await user.clear(text);
    await user.type(text, 'Item 02 Red Lamp (large){Enter}$ 25.00');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(linesOf(rows()[1]!)).toEqual(['Item 02 Red Lamp (large)', '$ 25.00']);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Edit item 2' })).toHaveFocus());

    await user.click(screen.getByRole('button', { name: 'Remove item 4' }));
    expect(titles()).toEqual([title(1), 'Item 02 Red Lamp (large)', title(3), title(5)]);
    expect(screen.getByText('4 items found')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByRole('button', { name: 'Undo last change' })).toHaveFocus());

    // Two different texts: the row's lines are added below the row above's.
    expect(screen.queryByRole('button', { name: /Merge item 1 into/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Merge item 3 into item 2' }));
    expect(rows()).toHaveLength(3);
    expect(linesOf(rows()[1]!)).toEqual(['Item 02 Red Lamp (large)', '$ 25.00', title(3), price(3)]);
    await user.click(screen.getByRole('button', { name: 'Undo last change' }));
    expect(titles()).toEqual([title(1), 'Item 02 Red Lamp (large)', title(3), title(5)]);

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    const csv = (await downloads[0]!.blob.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(csv).toHaveLength(4 + 2);
    expect(csv[2]).toBe('2,1,0:00,Item 02 Red Lamp (large) | $ 25.00,100%,Item 02 Red Lamp (large),$ 25.00');
    await user.click(screen.getByRole('button', { name: 'Export TXT' }));
    expect(await downloads[1]!.blob.text()).toContain('Item 02 Red Lamp (large)\n$ 25.00\n\nItem 03');

    // Kept with the work: the view opened again shows the corrected list.
    const kept = reported.at(-1);
    expect(kept).toMatchObject({ edits: { removed: [expect.any(String)], merged: {} } });
    first.unmount();
    render(<ScrollView view={view} work={{ initial: kept, changed: () => {} }} />);
    await screen.findByRole('table');
    expect(titles()).toEqual([title(1), 'Item 02 Red Lamp (large)', title(3), title(5)]);
  });
});
