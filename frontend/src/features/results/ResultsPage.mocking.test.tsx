import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../lib/store';
import type { Session } from '../../lib/auth/session';
import { SLOW_LOAD_MS } from './hooks';
import { readLocalRecord } from '../../lib/localRecords';
import ResultsPage from './ResultsPage';
import { apiError, fakeGateway, json } from '../../testing/fakeGateway';
import { sampleDetails } from './testing';

// jsdom has no IndexedDB: local records come from this function instead.
vi.mock('../../lib/localRecords', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../lib/localRecords')>()), readLocalRecord: vi.fn(async () => null) }));

const session: Session = { idToken: 'x.eyJzdWIiOiJ1MSJ9.y', refreshToken: 'r', expiresAt: Date.now() + 3_600_000, user: { uid: 'u1', email: 'ada@example.com', firstLogin: false } };

function Location() {
  const { pathname, search } = useLocation();
  return <output data-testid="location">{`${pathname}${search}`}</output>;
}

function renderAt(entry: string | { pathname: string; state: unknown }) {
  const store = makeStore({ auth: { session } });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[entry]}>
        <Routes>
          <Route path="/view-upload/:uploadID" element={<ResultsPage />} />
          <Route path="/view-upload-numerical/:uploadIDParam" element={<ResultsPage />} />
          <Route path="/uploads" element={<h1>Uploads list</h1>} />
        </Routes>
        <Location />
      </MemoryRouter>
    </Provider>,
  );
  return { toasts: () => store.getState().ui.toasts.map((t) => t.text) };
}

beforeEach(() => vi.mocked(readLocalRecord).mockReset().mockResolvedValue(null));
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('ResultsPage', () => {
  it('shows the details cards and opens the tab made for the upload, keeping the chosen tab in the address', async () => {
    const { requests } = fakeGateway({ 'GET /api/getUploadDetails/u-1': () => json(sampleDetails({ mediaContent: 'captions' })) });
    renderAt('/view-upload/u-1');

    expect(await screen.findByRole('heading', { name: 'Charger screen', level: 1 })).toBeInTheDocument();
    expect(new URL(requests[0]!.url).search).toBe('?mode=numerical');
    expect(requests[0]!.headers.get('authorization')).toBe(`Bearer ${session.idToken}`);
    expect(screen.getByRole('link', { name: /Back to Uploads/ })).toHaveAttribute('href', '/uploads');
    const details = screen.getByText('Processing type').closest('dl') as HTMLElement;
    expect(within(details).getByText('Region (captions)')).toBeInTheDocument();
    expect(within(details).getByText('Video')).toBeInTheDocument();
    expect(within(details).getByText('2')).toBeInTheDocument();

    const tabs = screen.getByRole('tablist', { name: 'Results views' });
    expect(within(tabs).getAllByRole('tab').map((t) => t.textContent)).toEqual(['Presentation', 'Numerical', 'Region', 'Scroll']);
    expect(within(tabs).getByRole('tab', { name: 'Region' })).toHaveAttribute('aria-selected', 'true');
    const user = userEvent.setup();
    await user.click(within(tabs).getByRole('tab', { name: 'Scroll' }));
    expect(within(tabs).getByRole('tab', { name: 'Scroll' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('location')).toHaveTextContent('?view=scroll');
    // Arrow keys move between tabs.
    fireEvent.keyDown(within(tabs).getByRole('tab', { name: 'Scroll' }), { key: 'ArrowRight' });
    expect(within(tabs).getByRole('tab', { name: 'Presentation' })).toHaveAttribute('aria-selected', 'true');
  });

  it('opens the tab named in the address, and explains the views on request', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/u-1': () => json(sampleDetails()) });
    renderAt('/view-upload/u-1?view=presentation');
    expect(await screen.findByRole('tab', { name: 'Presentation' })).toHaveAttribute('aria-selected', 'true');
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Which view should I use?' }));
    const help = screen.getByRole('dialog', { name: 'Which view should I use?' });
    expect(help).toHaveTextContent('Numerical');
    await user.click(within(help).getByRole('button', { name: 'Got it!' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the older numerical screen without tabs, loaded by getUploadDetailsOld', async () => {
    const { requests } = fakeGateway({ 'GET /api/getUploadDetailsOld/old-1': () => json({ ...sampleDetails(), results: { ...sampleDetails().results, linesByFrame: undefined } }) });
    renderAt('/view-upload-numerical/old-1');
    expect(await screen.findByRole('heading', { name: 'Charger screen', level: 1 })).toBeInTheDocument();
    const paths = () => requests.map((r) => `${new URL(r.url).pathname}${new URL(r.url).search}`);
    // The details, then the person's kept work on the one view shown.
    await waitFor(() => expect(paths()).toEqual(['/api/getUploadDetailsOld/old-1?mode=numerical', '/api/uploads/old-1/work/numerical']));
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
  });

  it('says "No results found." when the older numerical screen cannot load', async () => {
    fakeGateway({ 'GET /api/getUploadDetailsOld/old-2': () => apiError(409, 'results/not-ready', 'Results not yet available.') });
    const { toasts } = renderAt('/view-upload-numerical/old-2');
    expect(await screen.findByRole('alert')).toHaveTextContent('No results found.');
    expect(toasts()).toEqual(['No results found.']);
  });

  it('says the results are not available yet when the server has none', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/u-2': () => apiError(409, 'results/not-ready', 'Results not yet available.') });
    const { toasts } = renderAt('/view-upload/u-2');
    expect(await screen.findByRole('alert')).toHaveTextContent('Unable to load upload details yet.');
    expect(toasts()).toEqual(['Results not yet available.']);
    expect(screen.getByRole('link', { name: /Back to Uploads/ })).toBeInTheDocument();
  });

  it('says a deleted upload was deleted (410), with no Try again and no "not yet available"', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/u-gone': () => apiError(410, 'uploads/deleted', 'This upload was deleted, with its files and results.') });
    const { toasts } = renderAt('/view-upload/u-gone');
    expect(await screen.findByText('This upload was deleted.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Try again' })).not.toBeInTheDocument();
    expect(screen.queryByText(/not yet available|Unable to load/)).not.toBeInTheDocument();
    expect(toasts()).toEqual([]);
    expect(screen.getByRole('link', { name: /Back to Uploads/ })).toBeInTheDocument();
  });

  it('passes on the reason of a failed upload', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/u-3': () => apiError(409, 'results/failed', 'The video could not be read.') });
    renderAt('/view-upload/u-3');
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Unable to load upload details yet.');
    expect(alert).toHaveTextContent('The video could not be read.');
  });

  it('says when the load is slow', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    fakeGateway({ 'GET /api/getUploadDetails/slow': () => new Promise<Response>(() => {}) });
    renderAt('/view-upload/slow');
    expect(screen.getByText('Loading results')).toBeInTheDocument();
    expect(screen.queryByText(/taking longer than usual/)).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(SLOW_LOAD_MS + 50));
    expect(screen.getByText(/taking longer than usual/)).toBeInTheDocument();
  });

  it('offers the way back when the media has no text at all', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/blank': () => json(sampleDetails({}, ['', ''])) });
    renderAt('/view-upload/blank');
    const dialog = await screen.findByRole('dialog', { name: 'No Text Results Found' });
    expect(dialog).toHaveTextContent('Your media does not appear to contain any text.');
    expect(dialog).toHaveTextContent('No text was found on any of the 2 frames.');
    expect(within(dialog).getByRole('link', { name: 'support@frametext.app' })).toBeInTheDocument();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Back to Uploads' }));
    expect(await screen.findByRole('heading', { name: 'Uploads list' })).toBeInTheDocument();
  });

  it('says No Text Results Found when almost nothing was read, with what to try, and lets the person look at the frames', async () => {
    // 24 frames, one of them with one word: text on under 5 % of the frames and under 10 words.
    const details = sampleDetails();
    const texts = Array.from({ length: 24 }, (_, i) => (i === 7 ? '8.8' : ''));
    details.results = {
      ...details.results,
      results: texts.map((text) => (text ? [{ text, vertices: [{ x: 10, y: 10 }, { x: 60, y: 10 }, { x: 60, y: 40 }, { x: 10, y: 40 }], area: 1500, blockType: 'LINE' }] : [])),
      linesByFrame: texts.map((text) => (text ? [{ text }] : [])),
      ocrResults: texts.map((text, i) => ({ t: i * 5, fileIndex: i, text, detections: [] })),
    };
    details.urls = texts.map((_, i) => `http://files.test/${String(i * 5000).padStart(10, '0')}.jpg`);
    fakeGateway({ 'GET /api/getUploadDetails/meter': () => json(details) });
    renderAt('/view-upload/meter');
    const dialog = await screen.findByRole('dialog', { name: 'No Text Results Found' });
    expect(dialog).toHaveTextContent('Your media does not appear to contain any text.');
    expect(dialog).toHaveTextContent('Text was found on 1 of 24 frames: 1 word in all.');
    expect(within(dialog).getByRole('heading', { name: 'What to try' })).toBeInTheDocument();
    expect(dialog).toHaveTextContent('Upload it again with a different frame interval');
    expect(within(dialog).getByRole('button', { name: 'Back to Uploads' })).toBeInTheDocument();

    const user = userEvent.setup();
    await user.click(within(dialog).getByRole('button', { name: 'Look at the frames' }));
    expect(screen.queryByRole('dialog', { name: 'No Text Results Found' })).toBeNull();
    expect(screen.getByText('Text was found on 1 of 24 frames: 1 word in all.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'What to try' }));
    expect(await screen.findByRole('dialog', { name: 'No Text Results Found' })).toBeInTheDocument();
  });

  it('shows no such modal when text is on a few frames', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/some': () => json(sampleDetails({}, ['', 'SOC 81%'])) });
    renderAt('/view-upload/some');
    expect(await screen.findByRole('heading', { name: 'Charger screen', level: 1 })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'No Text Results Found' })).toBeNull();
  });

  it('reads a local upload from the browser database instead of the server', async () => {
    const { requests } = fakeGateway();
    vi.mocked(readLocalRecord).mockResolvedValue({
      id: 'local-5',
      fileName: 'dash.mp4',
      uploadedAt: '2025-08-02T08:00:00.000Z',
      data: [{ t: 0, text: 'Speed 88', thumb: 'data:image/jpeg;base64,AA', ocrW: 640, ocrH: 360, words: [{ text: 'Speed', nbox: { x: 0.1, y: 0.1, w: 0.2, h: 0.1 } }] }],
    });
    renderAt('/view-upload/local-5');
    expect(await screen.findByRole('heading', { name: 'dash.mp4', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Numerical' })).toHaveAttribute('aria-selected', 'true');
    expect(readLocalRecord).toHaveBeenCalledWith('local-5');
    expect(requests).toHaveLength(0);
  });

  it('says so when a local upload is not in this browser', async () => {
    fakeGateway();
    const { toasts } = renderAt('/view-upload/local-404');
    expect(await screen.findByRole('alert')).toHaveTextContent('This local upload is not saved in this browser.');
    await waitFor(() => expect(toasts()).toEqual(['Results not yet available.']));
  });

  it('restores the person\'s kept work before showing the view, and saves their changes on the revision it read', async () => {
    localStorage.setItem('ViewedHowTo', 'true');
    const kept = {
      version: 1,
      tracking: { similarity: 85, disappearance: 1, minSize: 0, confidence: 50 },
      blocks: [
        {
          id: 'locked-4321',
          originalId: 'block-1-1',
          locked: true,
          uniqueID: 4321,
          points: [{ frame: 0, index: 0 }, { frame: 1, index: 0 }],
          total: 2,
          settings: { seriesName: 'Charger power', numbersOnly: true, wordsToRemove: '', charactersToRemove: '', characterToSplit: '', keepSplitItem: 0 },
        },
      ],
    };
    const { requests } = fakeGateway({
      'GET /api/getUploadDetails/u-kept': () => json(sampleDetails()),
      'GET /api/uploads/u-kept/work/numerical': () => json({ data: { view: 'numerical', revision: 3, document: kept, updatedAt: '2025-08-01T12:00:00.000Z' } }),
      'PUT /api/uploads/u-kept/work/numerical': () => json({ data: { revision: 4, updatedAt: '2025-08-01T12:01:00.000Z' } }),
    });
    renderAt('/view-upload/u-kept?view=numerical');
    // The locked series is back under its name, with its cleaning: the export table shows its values.
    expect(await screen.findAllByText('Charger power', {}, { timeout: 10_000 })).not.toHaveLength(0);
    expect(screen.getByRole('button', { name: /Unlock/ })).toBeInTheDocument();
    expect(screen.getByTestId('kept-work-status')).toHaveTextContent('Saved');
    expect(requests.some((r) => r.method === 'PUT')).toBe(false);

    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: /Unlock/ }));
    await waitFor(() => expect(requests.filter((r) => r.method === 'PUT')).toHaveLength(1), { timeout: 3000 });
    const put = requests.find((r) => r.method === 'PUT')!;
    const body = (await put.clone().json()) as { revision: number; document: typeof kept };
    expect(body.revision).toBe(3);
    expect(body.document.blocks[0]).toMatchObject({ locked: false, id: 'block-1-1', settings: { seriesName: 'Charger power' } });
    await waitFor(() => expect(screen.getByTestId('kept-work-status')).toHaveTextContent('Saved'));
  }, 20_000);
});
