import type { Profile, UploadListItem } from '@frametext/contracts';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes, useParams } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../lib/store';
import type { Session } from '../../lib/auth/session';
import { deleteLocalUploads, listLocalUploads } from './localUploads';
import { apiError, fakeGateway, json } from '../../testing/fakeGateway';
import UploadsPage, { LIST_REFRESH_MS } from './UploadsPage';

// jsdom has no IndexedDB: the browser database is replaced by these two functions.
vi.mock('./localUploads', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./localUploads')>()),
  listLocalUploads: vi.fn(async () => []),
  deleteLocalUploads: vi.fn(async () => undefined),
}));

const session: Session = { idToken: 'x.eyJzdWIiOiJ1MSJ9.y', refreshToken: 'r', expiresAt: Date.now() + 3_600_000, user: { uid: 'u1', email: 'ada@example.com', firstLogin: false } };
const profile: Profile = { uid: 'u1', email: 'ada@example.com', credits: 42, subscription_tier: 'free', firstLogin: false };

const upload = (id: string, uploadName: string, status: UploadListItem['status'], minutesAgo = 0): UploadListItem => ({
  id,
  uploadName,
  status,
  uploadedAt: new Date(Date.UTC(2025, 7, 1, 12, 0) - minutesAgo * 60_000).toISOString(),
  imageUrl: status === 'processed' ? `http://files.test/${id}.jpg` : null,
  mediaContent: 'numerical',
  isLocal: false,
  ocrType: 'server',
});

function ResultsProbe() {
  return <p>Opened {useParams().uploadID}</p>;
}

function renderPage() {
  const store = makeStore({ auth: { session } });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={['/uploads']}>
        <Routes>
          <Route path="/uploads" element={<UploadsPage />} />
          <Route path="/view-upload/:uploadID" element={<ResultsProbe />} />
          <Route path="/upload" element={<p>Wizard</p>} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
  return { store, toasts: () => store.getState().ui.toasts.map((t) => t.text) };
}

const card = (name: string) => screen.getByRole('button', { name }).closest('li') as HTMLElement;

beforeEach(() => {
  vi.mocked(listLocalUploads).mockResolvedValue([]);
  vi.mocked(deleteLocalUploads).mockClear();
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

describe('UploadsPage', () => {
  it('shows skeletons while loading, then the empty state with a way to start, and the credit balance', async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    fakeGateway({
      'GET /api/getUploads': async () => {
        await gate;
        return json({ data: { uploads: [] } });
      },
      'GET /api/getUserData': () => json(profile),
    });
    renderPage();
    expect(screen.getByRole('heading', { name: 'Uploads', level: 1 })).toBeInTheDocument();
    expect(screen.getAllByTestId('upload-skeleton').length).toBeGreaterThan(0);
    expect(screen.queryByText('No uploads yet')).not.toBeInTheDocument();

    release();
    expect(await screen.findByText('No uploads yet')).toBeInTheDocument();
    expect(screen.queryByTestId('upload-skeleton')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start your first upload' })).toHaveAttribute('href', '/upload');
    await waitFor(() => expect(screen.getByTestId('credit-balance')).toHaveTextContent('42'));
    expect(screen.getByRole('button', { name: 'Delete Selected' })).toBeDisabled();
    for (const name of ['New Upload', 'New Local Upload', 'Purchase Credits']) expect(screen.getByRole('button', { name })).toBeEnabled();
  });

  it('shows each upload with its status badge, local uploads too, newest first', async () => {
    vi.mocked(listLocalUploads).mockResolvedValue([
      { id: 'local-1', uploadName: 'dashcam.mp4', uploadedAt: '2025-08-01T12:30:00.000Z', imageUrl: 'data:image/jpeg;base64,AAAA', status: 'processed', mediaContent: 'numerical', isLocal: true, ocrType: 'local' },
    ]);
    fakeGateway({
      'GET /api/getUploads': () =>
        json({ data: { uploads: [upload('a', 'Charger video', 'processing', 1), upload('b', 'Broken clip', 'failed', 2), upload('c', 'Slides', 'processed', 3), upload('d', 'Just sent', 'uploaded', 4)] } }),
      'GET /api/getUserData': () => json(profile),
    });
    renderPage();
    await screen.findByRole('button', { name: 'Charger video' });

    expect(within(card('Charger video')).getByText('Processing')).toBeInTheDocument();
    expect(within(card('Just sent')).getByText('Processing')).toBeInTheDocument();
    expect(within(card('Broken clip')).getByText('Failed')).toBeInTheDocument();
    expect(within(card('Slides')).queryByText(/Processing|Failed/)).not.toBeInTheDocument();
    expect(within(card('dashcam.mp4')).queryByText(/Processing|Failed/)).not.toBeInTheDocument();
    expect(within(card('Slides')).getByRole('checkbox', { name: 'Select Slides' })).not.toBeChecked();
    expect(card('Slides').querySelector('img')).toHaveAttribute('src', 'http://files.test/c.jpg');
    // A failed upload's files are removed: no image (no broken thumbnail), the card's placeholder instead.
    expect(card('Broken clip').querySelector('img')).toBeNull();
    expect(card('Broken clip').querySelector('.upload-card__placeholder')).not.toBeNull();

    const names = within(screen.getByRole('list', { name: 'Your uploads' }))
      .getAllByRole('listitem')
      .map((li) => within(li).getAllByRole('button')[0]!.textContent);
    expect(names).toEqual(['dashcam.mp4', 'Charger video', 'Broken clip', 'Slides', 'Just sent']);
  });

  it('shows each card\'s mode and frame count, and No text found where almost nothing was read', async () => {
    vi.mocked(listLocalUploads).mockResolvedValue([
      { ...upload('local-2', 'blank.mp4', 'processed'), isLocal: true, ocrType: 'local', textFound: { frames: 30, framesWithText: 0, words: 0 } },
    ]);
    fakeGateway({
      'GET /api/getUploads': () =>
        json({
          data: {
            uploads: [
              { ...upload('m', 'Meter', 'processed', 1), textFound: { frames: 120, framesWithText: 1, words: 1 } },
              { ...upload('c', 'Charger', 'processed', 2), textFound: { frames: 120, framesWithText: 6, words: 6 } },
              { ...upload('s', 'Slides', 'processing', 3), mediaContent: 'presentation' },
            ],
          },
        }),
      'GET /api/getUserData': () => json(profile),
    });
    renderPage();
    await screen.findByRole('button', { name: 'Meter' });

    expect(within(card('Meter')).getByText('Numerical · 120 frames')).toBeInTheDocument();
    expect(within(card('Meter')).getByText('No text found')).toBeInTheDocument();
    expect(within(card('blank.mp4')).getByText('Numerical · 30 frames')).toBeInTheDocument();
    expect(within(card('blank.mp4')).getByText('No text found')).toBeInTheDocument();
    // Text on 5 % of the frames is text found; an upload still being read has no count yet.
    expect(within(card('Charger')).getByText('Numerical · 120 frames')).toBeInTheDocument();
    expect(within(card('Charger')).queryByText('No text found')).toBeNull();
    expect(within(card('Slides')).getByText('Presentation')).toBeInTheDocument();
    expect(within(card('Slides')).queryByText('No text found')).toBeNull();
  });

  it('deletes the selected uploads after confirming: server ids by POST /deleteUploads, local ones from the browser', async () => {
    vi.mocked(listLocalUploads).mockResolvedValue([
      { id: 'local-9', uploadName: 'local run', uploadedAt: '2025-07-01T00:00:00.000Z', imageUrl: null, status: 'processed', mediaContent: 'numerical', isLocal: true, ocrType: 'local' },
    ]);
    let remaining = [upload('a', 'First', 'processed'), upload('b', 'Second', 'processed', 1), upload('c', 'Third', 'processed', 2)];
    const server = fakeGateway({
      'GET /api/getUploads': () => json({ data: { uploads: remaining } }),
      'GET /api/getUserData': () => json(profile),
      'POST /api/deleteUploads': async (request) => {
        const { uploads } = (await request.json()) as { uploads: string[] };
        remaining = remaining.filter((u) => !uploads.includes(u.id));
        return json({ data: { deleted: uploads } });
      },
    });
    const { toasts } = renderPage();
    const user = userEvent.setup();
    await screen.findByRole('button', { name: 'First' });

    await user.click(screen.getByRole('checkbox', { name: 'Select First' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select Third' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select local run' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected' }));

    const dialog = screen.getByRole('dialog', { name: 'Delete 3 uploads?' });
    expect(within(dialog).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['First', 'Third', 'local run']);
    expect(server.count('POST', '/api/deleteUploads')).toBe(0);
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));

    await waitFor(() => expect(screen.queryByRole('button', { name: 'First' })).not.toBeInTheDocument());
    expect(server.calls.filter((c) => c.path === '/api/deleteUploads').map((c) => c.body)).toEqual([{ uploads: ['a', 'c'], deleteUploads: true }]);
    expect(deleteLocalUploads).toHaveBeenCalledWith(['local-9']);
    expect(screen.getByRole('button', { name: 'Second' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Third' })).not.toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(toasts()).toContain('Deleted 3 uploads.');
  });

  it('asks nothing of the server when the deletion is cancelled', async () => {
    const server = fakeGateway({ 'GET /api/getUploads': () => json({ data: { uploads: [upload('a', 'Keep me', 'processed')] } }), 'GET /api/getUserData': () => json(profile) });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('checkbox', { name: 'Select Keep me' }));
    await user.click(screen.getByRole('button', { name: 'Delete Selected' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete “Keep me”?' });
    expect(dialog).toHaveTextContent('“Keep me”, with its frames and results, will be removed for good.');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.count('POST', '/api/deleteUploads')).toBe(0);
    expect(screen.getByRole('checkbox', { name: 'Select Keep me' })).toBeChecked();
  });

  it('re-checks an upload that is not processed and says "Still processing." when it still is', async () => {
    const server = fakeGateway({
      'GET /api/getUploads': () => json({ data: { uploads: [upload('a', 'Charger video', 'processing')] } }),
      'GET /api/getUserData': () => json(profile),
      'GET /api/checkUploadStatus/a': () => json({ data: { uploadID: 'a', status: 'processing', framesDone: 3, framesTotal: 9, failureReason: null } }),
    });
    const { toasts } = renderPage();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Charger video' }));
    await waitFor(() => expect(toasts()).toEqual(['Still processing.']));
    expect(server.count('GET', '/api/checkUploadStatus/a')).toBe(1);
    expect(screen.getByRole('heading', { name: 'Uploads' })).toBeInTheDocument();
  });

  it('opens an upload that is processed, and one whose re-check finds it processed now', async () => {
    fakeGateway({
      'GET /api/getUploads': () => json({ data: { uploads: [upload('done', 'Finished', 'processed'), upload('late', 'Late one', 'uploaded')] } }),
      'GET /api/getUserData': () => json(profile),
      'GET /api/checkUploadStatus/late': () => json({ data: { uploadID: 'late', status: 'processed', framesDone: 4, framesTotal: 4, failureReason: null } }),
    });
    renderPage();
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Finished' }));
    expect(await screen.findByText('Opened done')).toBeInTheDocument();

    cleanupAndRender();
    await user.click(await screen.findByRole('button', { name: 'Late one' }));
    expect(await screen.findByText('Opened late')).toBeInTheDocument();
  });

  it('says why a failed upload failed when it is clicked', async () => {
    fakeGateway({
      'GET /api/getUploads': () => json({ data: { uploads: [upload('f', 'Broken clip', 'failed')] } }),
      'GET /api/getUserData': () => json(profile),
      'GET /api/checkUploadStatus/f': () => json({ data: { uploadID: 'f', status: 'failed', framesDone: 0, framesTotal: null, failureReason: 'The video could not be read.' } }),
    });
    const { toasts } = renderPage();
    await userEvent.setup().click(await screen.findByRole('button', { name: 'Broken clip' }));
    await waitFor(() => expect(toasts()).toEqual(['This upload failed: The video could not be read.']));
  });

  it.each(['processing', 'downloading'] as const)('refreshes the list every 10 s while an upload is %s, and stops once none is', async (first) => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let status: UploadListItem['status'] = first;
    const server = fakeGateway({ 'GET /api/getUploads': () => json({ data: { uploads: [upload('a', 'Charger video', status)] } }), 'GET /api/getUserData': () => json(profile) });
    renderPage();
    await screen.findByText('Processing');
    expect(server.count('GET', '/api/getUploads')).toBe(1);

    status = 'processed';
    await act(() => vi.advanceTimersByTimeAsync(LIST_REFRESH_MS + 100));
    await waitFor(() => expect(screen.queryByText('Processing')).not.toBeInTheDocument());
    expect(server.count('GET', '/api/getUploads')).toBe(2);

    await act(() => vi.advanceTimersByTimeAsync(LIST_REFRESH_MS * 3));
    expect(server.count('GET', '/api/getUploads')).toBe(2);
  });

  it('tells the person when the list cannot be loaded', async () => {
    fakeGateway({ 'GET /api/getUploads': () => apiError(503, 'internal', 'The uploads service is not answering.'), 'GET /api/getUserData': () => json(profile) });
    renderPage();
    expect(await screen.findByRole('alert')).toHaveTextContent('The uploads service is not answering.');
    expect(screen.queryByText('No uploads yet')).not.toBeInTheDocument();
  });
});

function cleanupAndRender() {
  // A fresh page on /uploads, as after pressing Back.
  cleanup();
  renderPage();
}
