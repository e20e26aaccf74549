import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useParams } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../components/testUtils';
import { saveLocalRecord, type LocalFrame } from '../../lib/localRecords';
import { apiError, fakeGateway, json, type Handler } from '../../testing/fakeGateway';
import { scanVideo, type ScanOptions } from './engine/scan';
import LocalPage from './LocalPage';

// jsdom plays no video and runs no Tesseract: the scan and the browser database are stood in for.
vi.mock('./engine/scan', () => ({ scanVideo: vi.fn() }));
vi.mock('./engine/ocrPool', () => ({ workerCount: () => 1, openOcrPool: vi.fn(async () => ({ read: vi.fn(), close: vi.fn(async () => undefined) })) }));
vi.mock('../../lib/localRecords', async (importOriginal) => ({ ...(await importOriginal<typeof import('../../lib/localRecords')>()), saveLocalRecord: vi.fn(async () => []) }));

const frames: LocalFrame[] = [
  { t: 0, text: 'Battery\n45%', words: [{ text: 'Battery', nbox: { x: 0.1, y: 0.2, w: 0.2, h: 0.1 }, conf: 95, run: 0 }, { text: '45%', nbox: { x: 0.5, y: 0.2, w: 0.1, h: 0.1 }, conf: 91, run: 1 }], thumb: 'data:image/jpeg;base64,AA', ocrW: 1280, ocrH: 720 },
  { t: 5, text: 'Battery\n46%', words: [], thumb: 'data:image/jpeg;base64,BB', ocrW: 1280, ocrH: 720 },
  { t: 10, text: '', words: [], thumb: 'data:image/jpeg;base64,CC', ocrW: 1280, ocrH: 720 },
];

const profile = (credits: number) => json({ uid: 'u1', email: 'ada@example.com', credits, subscription_tier: 'free', firstLogin: false });

function Opened() {
  return <h1>Opened {useParams().uploadID}</h1>;
}

function open(credits = 50, extra: Record<string, Handler> = {}) {
  const api = fakeGateway({ 'GET /api/getUserData': () => profile(credits), ...extra });
  renderApp('/local', { session: testSession, pages: [{ path: '/local', element: <LocalPage /> }, { path: '/view-upload/:uploadID', element: <Opened /> }] });
  return api;
}

/** Chooses a file and lets the <video> report its metadata, as a browser would. */
async function chooseVideo(name = 'dash.mp4', duration = 12) {
  const input = screen.getByLabelText('Choose a video');
  await userEvent.setup().upload(input, new File(['video'], name, { type: 'video/mp4' }));
  const video = document.querySelector('video')!;
  Object.defineProperties(video, { duration: { value: duration, configurable: true }, videoWidth: { value: 1280, configurable: true }, videoHeight: { value: 720, configurable: true } });
  fireEvent.loadedMetadata(video);
}

const run = () => screen.getByRole('button', { name: /Run OCR|Scanning/ });

beforeEach(() => {
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:video'), revokeObjectURL: vi.fn() }));
  vi.mocked(scanVideo).mockReset();
  vi.mocked(saveLocalRecord).mockClear();
});
afterEach(() => vi.unstubAllGlobals());

describe('LocalPage', () => {
  it('costs the frames at the interval and enables Run OCR only when it can run', async () => {
    open(50);
    expect(run()).toBeDisabled();
    expect(screen.getByRole('slider', { name: /Scan interval/ })).toHaveAttribute('aria-valuetext', 'every 5 s');
    expect(screen.getByRole('slider', { name: /Downscale/ })).toHaveValue('100');
    await chooseVideo('dash.mp4', 12);
    expect(await screen.findByTestId('local-cost')).toHaveTextContent('3 frames · 1 credit (you have 50)');
    await waitFor(() => expect(run()).toBeEnabled());

    // 0.1 s over 30 s is 300 frames: over the local limit of 200.
    await chooseVideo('long.mov', 30);
    fireEvent.change(screen.getByRole('slider', { name: /Scan interval/ }), { target: { value: '0' } });
    expect(screen.getByRole('alert')).toHaveTextContent("Whoa that's a lot of frames. For the sake of your computer");
    expect(run()).toBeDisabled();
  });

  it('says how many credits are missing and offers the purchase modal', async () => {
    open(0);
    await chooseVideo();
    expect(await screen.findByText('You have 0 credits but this operation requires 1.')).toBeInTheDocument();
    expect(run()).toBeDisabled();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Purchase Credits' }));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
  });

  it('shows the chosen file: its name and size at once, its duration and size in pixels once the video says', async () => {
    open();
    const input = screen.getByLabelText<HTMLInputElement>('Choose a video');
    await userEvent.setup().upload(input, new File(['12345'], 'charger run.mp4', { type: 'video/mp4' }));
    // The input keeps the file (a browser shows its name there), and the page says which file it is.
    expect(input.files?.[0]?.name).toBe('charger run.mp4');
    expect(input).toHaveAccessibleDescription('Chosen: charger run.mp4 · 5 B');
    const video = document.querySelector('video')!;
    Object.defineProperties(video, { duration: { value: 95, configurable: true }, videoWidth: { value: 1280, configurable: true }, videoHeight: { value: 720, configurable: true } });
    fireEvent.loadedMetadata(video);
    expect(await screen.findByText('Chosen: charger run.mp4 · 5 B · 1:35 · 1280×720')).toBeInTheDocument();
  });

  it('refuses a file that is not an mp4 or mov', async () => {
    open();
    await userEvent.setup({ applyAccept: false }).upload(screen.getByLabelText('Choose a video'), new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByText('Please upload one .mov or .mp4 at a time.')).toBeInTheDocument();
  });

  it('scans with progress, previews the words, downloads the text, then saves, logs and opens the run', async () => {
    let finish!: () => void;
    vi.mocked(scanVideo).mockImplementation(async (o: ScanOptions) => {
      expect(o.times).toEqual([0, 5, 10]);
      expect(o.scale).toBe(0.8);
      o.onFrame?.(frames[0]!, 0);
      o.onProgress?.(1, 3);
      await new Promise<void>((resolve) => (finish = resolve));
      frames.slice(1).forEach((f, i) => o.onFrame?.(f, i + 1));
      o.onProgress?.(3, 3);
      return frames;
    });
    const api = open(50, { 'POST /api/logLocalUpload': (_r, body) => json({ data: { uploadID: (body as { uploadID: string }).uploadID, creditCost: 1, credits: 49 } }) });
    const user = userEvent.setup();
    await chooseVideo('dash.mp4', 12);
    fireEvent.change(screen.getByRole('slider', { name: /Downscale/ }), { target: { value: '80' } });
    await waitFor(() => expect(run()).toBeEnabled());
    await user.click(run());

    expect(await screen.findByRole('button', { name: 'Scanning…' })).toBeDisabled();
    expect(screen.getByRole('progressbar', { name: 'Scanning...' })).toHaveAttribute('aria-valuenow', '33');
    expect(screen.getByRole('button', { name: 'Save and Analyze' })).toBeDisabled();
    const preview = screen.getByRole('region', { name: 'Preview' });
    expect(within(preview).getByTestId('frame-text')).toHaveTextContent('Battery 45%');
    expect(preview.querySelectorAll('rect.local-preview__box')).toHaveLength(2);

    await act(async () => finish());
    expect(await screen.findByText('Done: 3 frames read')).toBeInTheDocument();
    const rows = within(screen.getByRole('region', { name: 'Frames' })).getAllByRole('button');
    expect(rows.map((row) => row.textContent)).toEqual(['Frame 1 (0:00)Battery · 45%', 'Frame 2 (0:05)Battery · 46%', 'Frame 3 (0:10)No text found']);
    await user.click(within(screen.getByRole('region', { name: 'Frames' })).getByRole('button', { name: /0:05/ }));
    expect(within(preview).getByRole('heading')).toHaveTextContent('Frame 2 of 3 (0:05)');

    await user.click(screen.getByRole('button', { name: 'Download Text' }));
    const blob = vi.mocked(URL.createObjectURL).mock.calls.map(([b]) => b).find((b) => b instanceof Blob && b.type.startsWith('text/plain')) as Blob;
    expect(await blob.text()).toContain('Frame 1 (0:00)\nBattery\n45%');

    await user.click(screen.getByRole('button', { name: 'Save and Analyze' }));
    const heading = await screen.findByRole('heading', { name: /^Opened local-/ });
    const id = heading.textContent!.replace('Opened ', '');
    expect(api.calls.filter((c) => c.path === '/api/logLocalUpload').map((c) => c.body)).toEqual([
      { uploadID: id, uploadName: 'dash.mp4', mediaContent: 'numerical', duration: 12, targetFrameRate: 0.2, fileName: 'dash.mp4', ocrType: 'local' },
    ]);
    expect(saveLocalRecord).toHaveBeenCalledWith(expect.objectContaining({ id, data: frames, duration: 12, targetFrameRate: 0.2, fileName: 'dash.mp4', _addedAt: expect.any(Number), uploadedAt: expect.any(String) }));
  });

  it('keeps the run when billing refuses it, and offers credits', async () => {
    vi.mocked(scanVideo).mockResolvedValue(frames);
    open(50, { 'POST /api/logLocalUpload': () => apiError(402, 'billing/insufficient-credits', 'You have 0 credits but this operation requires 1.') });
    const user = userEvent.setup();
    await chooseVideo();
    await waitFor(() => expect(run()).toBeEnabled());
    await user.click(run());
    await user.click(await screen.findByRole('button', { name: 'Save and Analyze' }));
    expect(await screen.findByRole('dialog')).toBeInTheDocument();
    expect(screen.getAllByText('You have 0 credits but this operation requires 1.').length).toBeGreaterThan(0);
    expect(saveLocalRecord).not.toHaveBeenCalled();
  });

  it('shows the message of a failed scan in an alert', async () => {
    vi.mocked(scanVideo).mockRejectedValue(new Error('Video has no dimensions.'));
    const alert = vi.spyOn(window, 'alert').mockImplementation(() => undefined);
    open();
    await chooseVideo();
    await waitFor(() => expect(run()).toBeEnabled());
    await userEvent.setup().click(run());
    await waitFor(() => expect(alert).toHaveBeenCalledWith('Video has no dimensions.'));
    expect(await screen.findAllByText('Video has no dimensions.')).not.toHaveLength(0);
  });
});
