import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Profile, PublicConfig } from '@frametext/contracts';
import { makeStore } from '../../lib/store';
import type { Session } from '../../lib/auth/session';
import { readPhotoTimestamps, readVideoDuration } from './media';
import { apiError, fakeGateway, json, type Handler } from '../../testing/fakeGateway';
import { UploadWizard } from './UploadWizardPage';

vi.mock('./media', async (importOriginal) => ({
  ...(await importOriginal<typeof import('./media')>()),
  // jsdom has no media decoding: the browser-reading part is stubbed, the XHR transfer is real.
  readVideoDuration: vi.fn(),
  readPhotoTimestamps: vi.fn(),
}));

const session: Session = { idToken: 'x.eyJzdWIiOiJ1MSJ9.y', refreshToken: 'r', expiresAt: Date.now() + 3_600_000, user: { uid: 'u1', email: 'ada@example.com', firstLogin: false } };

const config: PublicConfig = {
  freeCredits: 50,
  purchases: 'simulated',
  engines: [
    { engine: 'cloud', available: false, reason: 'Cloud OCR is not configured on this server.', creditsPerFrame: 1, framesPerCredit: 1 },
    { engine: 'server', available: true, reason: null, creditsPerFrame: 0.1, framesPerCredit: 10 },
    { engine: 'local', available: true, reason: null, creditsPerFrame: 0.05, framesPerCredit: 20 },
  ],
  maxFrames: 360,
  localMaxFrames: 200,
  frameIntervals: [15],
  defaultFrameInterval: 15,
  localScanIntervals: [5],
  defaultLocalScanInterval: 5,
  creditPacks: [],
  retentionDays: 30,
};

/** A fake gateway: config and profile always, the upload calls as each test says. Records every request. */
function serve(routes: Record<string, Handler> = {}, credits = 50) {
  const profile: Profile = { uid: 'u1', email: 'ada@example.com', credits, subscription_tier: 'free', firstLogin: false };
  return fakeGateway({ 'GET /api/config': () => json(config), 'GET /api/getUserData': () => json(profile), ...routes }).calls;
}

interface SentFile {
  url: string;
  headers: Record<string, string>;
  body: unknown;
}

/** XMLHttpRequest that sends half of each body, waits for `finish`, then answers `status`. */
function fakeXhr(status = 200, finish: Promise<void> = Promise.resolve()) {
  const sent: SentFile[] = [];
  class FakeXHR {
    upload: { onprogress: ((e: { loaded: number }) => void) | null } = { onprogress: null };
    onload: (() => void) | null = null;
    onerror: (() => void) | null = null;
    onabort: (() => void) | null = null;
    status = 0;
    responseText = '';
    private url = '';
    private headers: Record<string, string> = {};
    open(_method: string, url: string) {
      this.url = url;
    }
    setRequestHeader(name: string, value: string) {
      this.headers[name] = value;
    }
    send(body: Blob) {
      sent.push({ url: this.url, headers: this.headers, body });
      setTimeout(() => this.upload.onprogress?.({ loaded: Math.floor(body.size / 2) }), 5);
      setTimeout(() => {
        void finish.then(() => {
          this.status = status;
          this.onload?.();
        });
      }, 15);
    }
    abort() {
      this.onabort?.();
    }
  }
  vi.stubGlobal('XMLHttpRequest', FakeXHR);
  return sent;
}

function renderWizard() {
  const store = makeStore({ auth: { session } });
  render(
    <Provider store={store}>
      <MemoryRouter>
        <UploadWizard pollMs={20} />
      </MemoryRouter>
    </Provider>,
  );
  const toasts = () => store.getState().ui.toasts.map((t) => t.text);
  return { store, toasts };
}

const video = (name = 'charger.mp4', size = 4000) => new File([new Uint8Array(size)], name, { type: name.endsWith('.mov') ? 'video/quicktime' : 'video/mp4' });
const photo = (name: string, lastModified = 1_700_000_000_000) => new File([new Uint8Array(100)], name, { type: name.endsWith('.png') ? 'image/png' : 'image/jpeg', lastModified });

/** The label of the step marked current in the indicator. */
const currentStep = () => within(screen.getByRole('list', { name: 'Upload steps' })).getAllByRole('listitem').find((li) => li.getAttribute('aria-current') === 'step')?.lastChild?.textContent;

async function ready() {
  await waitFor(() => expect(screen.getByLabelText('Engine')).toHaveValue('server'));
}

beforeEach(() => {
  vi.mocked(readVideoDuration).mockResolvedValue(600);
  vi.mocked(readPhotoTimestamps).mockImplementation(async (files) => files.map((f) => f.lastModified));
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.clearAllMocks();
});

describe('upload wizard, step 1', () => {
  it('shows the three steps with Upload current', async () => {
    serve();
    renderWizard();
    const steps = screen.getByRole('list', { name: 'Upload steps' });
    expect(within(steps).getAllByRole('listitem').map((li) => li.textContent)).toEqual(['1Upload', '2Process', '3View']);
    expect(within(steps).getByText('Upload').closest('li')).toHaveAttribute('aria-current', 'step');
    await ready();
  });

  it('defaults to the first available engine and shows why the other is unavailable', async () => {
    serve();
    renderWizard();
    await ready();
    expect(screen.getByRole('option', { name: /Cloud AI/ })).toBeDisabled();
    expect(screen.getByRole('option', { name: /Basic/ })).toBeEnabled();
    expect(screen.queryByRole('option', { name: /Local/ })).toBeNull();
    expect(screen.getByText('Cloud AI is unavailable: Cloud OCR is not configured on this server.')).toBeInTheDocument();
  });

  it('starts on Cloud AI while it is available, and moves to Basic with the reason when the server says it went away', async () => {
    let cloudUp = true;
    const cloudConfig = () => ({
      ...config,
      engines: config.engines.map((e) => (e.engine === 'cloud' ? { ...e, available: cloudUp, reason: cloudUp ? null : 'Cloud AI is not configured on this server; use Basic.' } : e)),
    });
    const calls = fakeGateway({
      'GET /api/config': () => json(cloudConfig()),
      'GET /api/getUserData': () => json({ uid: 'u1', email: 'ada@example.com', credits: 50, subscription_tier: 'free', firstLogin: false }),
      'POST /api/getUploadURL': () => {
        cloudUp = false; // its worker stopped after the page read the engines
        return apiError(400, 'upload/engine-unavailable', 'Cloud AI is not configured on this server; use Basic.');
      },
    }).calls;
    fakeXhr();
    const { toasts } = renderWizard();
    await waitFor(() => expect(screen.getByLabelText('Engine')).toHaveValue('cloud'));
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Run 1');
    await user.upload(screen.getByLabelText('Media files'), video());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    await waitFor(() => expect(toasts()).toEqual(['Cloud AI is not configured on this server; use Basic.']));
    await waitFor(() => expect(screen.getByLabelText('Engine')).toHaveValue('server'));
    expect(screen.getByRole('option', { name: /Cloud AI/ })).toBeDisabled();
    expect(screen.getByText('Cloud AI is unavailable: Cloud AI is not configured on this server; use Basic.')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/config').length).toBeGreaterThanOrEqual(2);
  });

  it('labels the 20 frame intervals and starts at 15 seconds', async () => {
    serve();
    renderWizard();
    const interval = screen.getByLabelText('Frame interval');
    const labels = within(interval).getAllByRole('option').map((o) => o.textContent);
    expect(labels).toHaveLength(20);
    expect(labels[0]).toBe('Capture text every 0.1 seconds');
    expect(labels[10]).toBe('Capture text every 1 minute');
    expect(labels[19]).toBe('Capture text every 60 minutes');
    expect(interval).toHaveValue('15');
    expect(screen.getByLabelText('Media content')).toHaveValue('numerical');
    await ready();
  });

  it('refuses a bad selection with the spec toast and keeps nothing', async () => {
    serve();
    const { toasts } = renderWizard();
    await ready();
    const user = userEvent.setup({ applyAccept: false });
    await user.upload(screen.getByLabelText('Media files'), [video('a.mp4'), video('b.mp4')]);
    expect(toasts()).toContain('Please upload one .mov or .mp4 at a time.');
    await user.upload(screen.getByLabelText('Media files'), [photo('1.png'), photo('2.jpg')]);
    expect(toasts()).toContain('Please ensure multiple uploads are the same file type.');
    await user.upload(screen.getByLabelText('Media files'), [photo('1.png'), new File(['x'], 'notes.txt', { type: 'text/plain' })]);
    expect(toasts()).toContain('Ensure multiple uploads are all photos and either .png or .jpeg.');
    expect(screen.getByText('Select files to upload')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('prices a video: frames at the interval, credits at the engine rate', async () => {
    serve();
    renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Media files'), video());
    const cost = screen.getByRole('region', { name: 'Cost' });
    await waitFor(() => expect(within(cost).getByText('Frames').nextSibling).toHaveTextContent('40'));
    expect(within(cost).getByText('Credits').nextSibling).toHaveTextContent('4');
    expect(within(cost).getByText(/Try 3 to 4 key frames first/)).toBeInTheDocument();
    expect(screen.getByText('Ready to upload')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('warns in red and disables Upload over 360 frames', async () => {
    serve();
    renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Media files'), video());
    await user.selectOptions(screen.getByLabelText('Frame interval'), '1');
    expect(await screen.findByText("Whoa that's a lot of frames. We suggest reducing your framerate or splitting the upload media into multiple parts.")).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Frame interval'), '5');
    expect(screen.queryByText(/Whoa that's a lot of frames/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });

  it('says how many credits are missing and offers to buy more', async () => {
    serve({}, 2);
    renderWizard();
    await ready();
    await userEvent.setup().upload(screen.getByLabelText('Media files'), video());
    expect(await screen.findByText('You have 2 credits but this operation requires 4.')).toBeInTheDocument();
    expect(screen.getByText('Only the first 20 frames will be processed unless you buy more credits.')).toBeInTheDocument();
    await userEvent.setup().click(screen.getByRole('button', { name: 'Purchase Credits' }));
    expect(await screen.findByRole('dialog', { name: 'Purchase Credits' })).toBeInTheDocument();
  });

  it('asks for a name, then for credits, before uploading', async () => {
    const calls = serve({}, 0);
    const { toasts } = renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Media files'), video());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(toasts()).toEqual(['Please name your upload before uploading.']);
    await user.type(screen.getByLabelText('Upload name'), 'Run 1');
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(toasts()).toContain('Not enough credits, purchase some more before uploading.');
    expect(calls.some((c) => c.path === '/api/getUploadURL')).toBe(false);
  });

  it('clears the target language when it equals the original', async () => {
    serve();
    const { toasts } = renderWizard();
    await ready();
    const user = userEvent.setup();
    // Every mode asks for the language on screen (the model it is read with); only captions translate.
    expect(screen.getByLabelText('Original language')).toHaveValue('');
    expect(screen.queryByLabelText('Target language')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Media content'), 'captions');
    expect(screen.getByLabelText('Original language')).toHaveValue('');
    expect(within(screen.getByLabelText('Original language')).getByRole('option', { name: 'Auto' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Target language')).getByRole('option', { name: 'Same' })).toBeInTheDocument();
    await user.selectOptions(screen.getByLabelText('Original language'), 'fr');
    await user.selectOptions(screen.getByLabelText('Target language'), 'fr');
    expect(toasts()).toEqual(['Ensure original and target languages are not equal.']);
    expect(screen.getByLabelText('Target language')).toHaveValue('');
    await user.selectOptions(screen.getByLabelText('Target language'), 'zh-TW');
    expect(screen.getByLabelText('Target language')).toHaveValue('zh-TW');
  });

  it('offers slide detection, on by default, in presentation mode only', async () => {
    serve();
    renderWizard();
    await ready();
    const user = userEvent.setup();
    expect(screen.queryByLabelText('Slide detection')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Media content'), 'presentation');
    expect(screen.getByLabelText('Slide detection')).toBeChecked();
  });

  it('quotes slide detection as a ceiling, one frame per 2-s sample whatever the interval, and says it pays per slide found', async () => {
    serve();
    renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.upload(screen.getByLabelText('Media files'), video());
    await user.selectOptions(screen.getByLabelText('Media content'), 'presentation');
    const cost = screen.getByRole('region', { name: 'Cost' });
    // 600 s looked at every 2 s: at most 300 frames, 30 credits at the Basic rate.
    await waitFor(() => expect(within(cost).getByText('Frames, at most').nextSibling).toHaveTextContent('300'));
    expect(within(cost).getByText('Credits, at most').nextSibling).toHaveTextContent('30');
    expect(within(cost).getByText(/You pay for the frames slide detection keeps.*never more than 30 credits/)).toBeInTheDocument();
    expect(within(cost).getByText('10 min of video, looked at every 2 s for new slides.')).toBeInTheDocument();
    expect(screen.getByLabelText('Frame interval')).toBeDisabled();
    expect(screen.getByText('Not used with slide detection, which looks at the video every 2 seconds.')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Slide detection'));
    expect(within(cost).getByText('Frames').nextSibling).toHaveTextContent('40');
    expect(within(cost).queryByText(/You pay for the frames slide detection keeps/)).toBeNull();
    expect(screen.getByLabelText('Frame interval')).toBeEnabled();
  });

  it('takes a watch, embed or short link, ignores other links, and uploads by link: the fetch, then the reading', async () => {
    // Downloading until the test has seen the fetch's progress, processed from then on.
    let fetched = false;
    const release = () => (fetched = true);
    const calls = serve({
      'POST /api/getUploadURL': () => json({ urls: [], uploadID: 'up-7', framesRequested: 360, maxFrames: 360, creditCost: 36 }),
      'GET /api/checkUploadStatus/up-7': () =>
        json({
          data: fetched
            ? { uploadID: 'up-7', status: 'processed', framesDone: 6, framesTotal: 6, failureReason: null }
            : { uploadID: 'up-7', status: 'downloading', framesDone: 0, framesTotal: null, failureReason: null, download: { percent: 40, bytes: 400_000 } },
        }),
    });
    renderWizard();
    await ready();
    const user = userEvent.setup();
    const link = screen.getByLabelText('Video link');
    await user.type(link, 'https://vimeo.com/123456789');
    expect(screen.queryByText(/fetched from this link/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
    for (const good of ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'https://youtu.be/dQw4w9WgXcQ', 'https://www.youtube.com/watch?v=dQw4w9WgXcQ']) {
      await user.clear(link);
      await user.type(link, good);
      expect(screen.getByText(/The video is fetched from this link when you upload/)).toBeInTheDocument();
    }
    await user.type(screen.getByLabelText('Upload name'), 'Talk');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const fetching = await screen.findByRole('progressbar', { name: 'Download progress' });
    await waitFor(() => expect(fetching).toHaveAttribute('aria-valuenow', '40'));
    expect(screen.getByText('40% fetched')).toBeInTheDocument();
    expect(currentStep()).toBe('Process');
    release();
    expect(await screen.findByRole('link', { name: 'View results' })).toHaveAttribute('href', '/view-upload/up-7');

    expect(calls.find((c) => c.path === '/api/getUploadURL')?.body).toMatchObject({ kind: 'link', isVideo: true, youtubeLink: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', uploadName: 'Talk', ocrType: 'server' });
    expect(calls.filter((c) => c.path === '/api/uploadComplete')).toHaveLength(0);
  });

  it('says so when the browser cannot read the video length, and does not upload', async () => {
    serve();
    vi.mocked(readVideoDuration).mockRejectedValue(new Error("Your browser could not read this video's length."));
    renderWizard();
    await ready();
    await userEvent.setup().upload(screen.getByLabelText('Media files'), video('phone.mov'));
    expect(await screen.findByRole('alert')).toHaveTextContent("Your browser could not read this video's length.");
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });

  it('shows a storage-quota refusal in a toast before sending any bytes', async () => {
    const quotaMessage = 'This upload needs 4.0 KB of storage, and 1.0 KB of your 20 GB is left. Delete uploads you no longer need, or upload less at a time.';
    const calls = serve({
      'POST /api/getUploadURL': () => apiError(413, 'upload/quota-exceeded', quotaMessage),
    });
    const sent = fakeXhr();
    const { toasts } = renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Run 2');
    await user.upload(screen.getByLabelText('Media files'), video());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(toasts()).toEqual([quotaMessage]));
    expect(calls.find((c) => c.path === '/api/getUploadURL')?.body).toMatchObject({ size: 4000 });
    expect(sent).toHaveLength(0);
    expect(currentStep()).toBe('Upload');
  });

  it('shows the server refusal in a toast and stays on step 1', async () => {
    const calls = serve({
      'POST /api/getUploadURL': () => apiError(402, 'billing/insufficient-credits', 'Not enough credits, purchase some more before uploading.'),
    });
    const sent = fakeXhr();
    const { toasts } = renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Run 1');
    await user.upload(screen.getByLabelText('Media files'), video());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(toasts()).toEqual(['Not enough credits, purchase some more before uploading.']));
    expect(calls.filter((c) => c.path === '/api/getUploadURL')).toHaveLength(1);
    expect(sent).toHaveLength(0);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
    expect(currentStep()).toBe('Upload');
  });
});

describe('upload wizard, steps 2 and 3', () => {
  it('uploads a video with byte progress, follows processing, and opens the results', async () => {
    const statuses = [
      json({ data: { uploadID: 'up-1', status: 'uploaded', framesDone: 0, framesTotal: null, failureReason: null } }),
      json({ data: { uploadID: 'up-1', status: 'processing', framesDone: 1, framesTotal: 4, failureReason: null } }),
      json({ data: { uploadID: 'up-1', status: 'processing', framesDone: 3, framesTotal: 4, failureReason: null } }),
      json({ data: { uploadID: 'up-1', status: 'processed', framesDone: 4, framesTotal: 4, failureReason: null } }),
    ];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const calls = serve({
      'POST /api/getUploadURL': () => json({ urls: ['/files/put/video?sig=1'], uploadID: 'up-1', framesRequested: 40, maxFrames: 40, creditCost: 4 }),
      'POST /api/uploadComplete': () => json({ data: { uploadID: 'up-1', status: 'uploaded' } }),
      'GET /api/checkUploadStatus/up-1': async () => {
        const next = statuses.length > 1 ? statuses.shift() : (await gate, statuses.shift());
        return next ?? json({ data: { uploadID: 'up-1', status: 'processed', framesDone: 4, framesTotal: 4, failureReason: null } });
      },
    });
    let finishPut!: () => void;
    const sent = fakeXhr(200, new Promise<void>((r) => (finishPut = r)));
    renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Charger run');
    await user.upload(screen.getByLabelText('Media files'), video('charger.MP4', 4000));
    await user.selectOptions(screen.getByLabelText('Original language'), 'de');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));

    const uploadBar = await screen.findByRole('progressbar', { name: 'Upload progress' });
    await waitFor(() => expect(uploadBar).toHaveAttribute('aria-valuenow', '50'));
    expect(uploadBar).toHaveAttribute('aria-valuetext', '2.0 KB of 4.0 KB');
    expect(currentStep()).toBe('Upload');
    finishPut();

    const processing = await screen.findByRole('progressbar', { name: 'Processing progress' });
    await waitFor(() => expect(processing).toHaveAttribute('aria-valuenow', '3'));
    expect(processing).toHaveAttribute('aria-valuemax', '4');
    expect(screen.getByText('3 of 4 frames')).toBeInTheDocument();
    expect(currentStep()).toBe('Process');
    expect(screen.getByRole('button', { name: 'Start Over' })).toBeInTheDocument();
    const profileLoads = calls.filter((c) => c.path === '/api/getUserData').length;
    release();

    const view = await screen.findByRole('link', { name: 'View results' });
    expect(view).toHaveAttribute('href', '/view-upload/up-1');
    expect(currentStep()).toBe('View');
    expect(screen.getByRole('button', { name: 'Start Over' })).toBeInTheDocument();

    const request = calls.find((c) => c.path === '/api/getUploadURL')?.body;
    expect(request).toMatchObject({
      kind: 'video',
      isVideo: true,
      mimeType: 'video/mp4',
      duration: 600,
      targetFrameRate: 1 / 15,
      // The file's size, so the server can refuse an upload beyond the storage quota before any byte is sent.
      size: 4000,
      uploadName: 'Charger run',
      ocrType: 'server',
      mediaContent: 'numerical',
      // A German charger screen is read with the German model; nothing is translated outside captions.
      originalLanguage: 'de',
      targetLanguage: null,
    });
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ url: '/files/put/video?sig=1', headers: { 'Content-Type': 'video/mp4' } });
    expect(calls.find((c) => c.path === '/api/uploadComplete')?.body).toEqual({ uploadID: 'up-1' });
    // Credits were captured: Start Over shows a balance read after processing, not the cached one.
    await user.click(screen.getByRole('button', { name: 'Start Over' }));
    await waitFor(() => expect(calls.filter((c) => c.path === '/api/getUserData').length).toBeGreaterThan(profileLoads));
  });

  it('uploads photos one URL each, with their capture times and sort', async () => {
    const calls = serve({
      'POST /api/getUploadURL': () => json({ urls: ['/files/p0', '/files/p1'], uploadID: 'up-2', framesRequested: 2, maxFrames: 2, creditCost: 1 }),
      'POST /api/uploadComplete': () => json({ data: { uploadID: 'up-2', status: 'uploaded' } }),
      'GET /api/checkUploadStatus/up-2': () => json({ data: { uploadID: 'up-2', status: 'processed', framesDone: 2, framesTotal: 2, failureReason: null } }),
    });
    vi.mocked(readPhotoTimestamps).mockResolvedValue([1_600_000_000_000, 1_600_000_090_000]);
    const sent = fakeXhr();
    renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Whiteboard');
    await user.upload(screen.getByLabelText('Media files'), [photo('b.JPG', 5), photo('a.jpeg', 6)]);
    expect(screen.queryByLabelText('Frame interval')).toBeNull();
    await user.selectOptions(screen.getByLabelText('Sort photos by'), 'timestamp');
    expect(await screen.findByText('2 photos taken over 1 min 30 s.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByRole('link', { name: 'View results' })).toHaveAttribute('href', '/view-upload/up-2');
    expect(calls.find((c) => c.path === '/api/getUploadURL')?.body).toMatchObject({
      kind: 'photos',
      isVideo: false,
      mimeType: 'image/jpeg',
      files: [
        { name: 'b.JPG', type: 'image/jpeg', lastModified: 5, size: 100 },
        { name: 'a.jpeg', type: 'image/jpeg', lastModified: 6, size: 100 },
      ],
      timestamps: [1_600_000_000_000, 1_600_000_090_000],
      sortPreference: 'timestamp',
    });
    expect(sent.map((s) => [s.url, s.headers['Content-Type']])).toEqual([
      ['/files/p0', 'image/jpeg'],
      ['/files/p1', 'image/jpeg'],
    ]);
  });

  it('shows why an upload failed, and Start Over resets every field', async () => {
    serve({
      'POST /api/getUploadURL': () => json({ urls: ['/files/v'], uploadID: 'up-3', framesRequested: 40, maxFrames: 40, creditCost: 4 }),
      'POST /api/uploadComplete': () => json({ data: { uploadID: 'up-3', status: 'uploaded' } }),
      'GET /api/checkUploadStatus/up-3': () => json({ data: { uploadID: 'up-3', status: 'failed', framesDone: 0, framesTotal: null, failureReason: 'The video could not be decoded.' } }),
    });
    fakeXhr();
    renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Broken');
    await user.upload(screen.getByLabelText('Media files'), video());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('The video could not be decoded.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Start Over' }));
    expect(screen.getByLabelText('Upload name')).toHaveValue('');
    expect(screen.getByText('Select files to upload')).toBeInTheDocument();
    expect(currentStep()).toBe('Upload');
  });

  it('tells the person when a file could not be stored, and stays on step 1', async () => {
    const calls = serve({
      'POST /api/getUploadURL': () => json({ urls: ['/files/v'], uploadID: 'up-4', framesRequested: 40, maxFrames: 40, creditCost: 4 }),
    });
    fakeXhr(500);
    const { toasts } = renderWizard();
    await ready();
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('Upload name'), 'Run');
    await user.upload(screen.getByLabelText('Media files'), video());
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(toasts()).toEqual(['The file could not be stored (status 500). Please try again.']));
    expect(calls.some((c) => c.path === '/api/uploadComplete')).toBe(false);
    expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled();
  });
});

describe('upload wizard, step 3 when almost no text was read', () => {
  type Processed = { textFound?: { frames: number; framesWithText: number; words: number }; charged?: { credits: number; framesRead: number } };

  /** Uploads `files` and lets the server say processed with `outcome`; `cloud` makes the Cloud AI engine available. */
  async function finish(files: File[], outcome: Processed, { cloud = false } = {}) {
    serve({
      ...(cloud ? { 'GET /api/config': () => json({ ...config, engines: config.engines.map((e) => (e.engine === 'cloud' ? { ...e, available: true, reason: null } : e)) }) } : {}),
      'POST /api/getUploadURL': () => json({ urls: files.map((_, i) => `/files/f${i}`), uploadID: 'up-9', framesRequested: 120, maxFrames: 120, creditCost: 12 }),
      'POST /api/uploadComplete': () => json({ data: { uploadID: 'up-9', status: 'uploaded' } }),
      'GET /api/checkUploadStatus/up-9': () => json({ data: { uploadID: 'up-9', status: 'processed', framesDone: 120, framesTotal: 120, failureReason: null, ...outcome } }),
    });
    fakeXhr();
    renderWizard();
    await waitFor(() => expect(screen.getByLabelText('Engine')).toHaveValue(cloud ? 'cloud' : 'server'));
    const user = userEvent.setup();
    if (cloud) await user.selectOptions(screen.getByLabelText('Engine'), 'server');
    await user.type(screen.getByLabelText('Upload name'), 'Meter');
    await user.upload(screen.getByLabelText('Media files'), files);
    await waitFor(() => expect(screen.getByRole('button', { name: 'Upload' })).toBeEnabled());
    await user.click(screen.getByRole('button', { name: 'Upload' }));
    return screen.findByRole('heading', { level: 2, name: /Your text is ready|No Text Results Found/ });
  }

  it('says No Text Results Found with what was read, the credits charged for the frames read, and what to try', async () => {
    const heading = await finish([video('meter.mp4')], { textFound: { frames: 120, framesWithText: 1, words: 1 }, charged: { credits: 12, framesRead: 120 } });
    expect(heading).toHaveTextContent('No Text Results Found');
    expect(screen.queryByText('Your text is ready')).toBeNull();
    expect(screen.getByText(/Text was found on 1 of 120 frames: 1 word in all\./)).toBeInTheDocument();
    expect(screen.getByText(/12 credits were charged for the 120 frames read\. You pay for the frames that are read, whether or not they hold text/)).toBeInTheDocument();
    const advice = within(screen.getByRole('heading', { name: 'What to try' }).parentElement!).getAllByRole('listitem').map((li) => li.textContent);
    // Cloud AI is not offered by this server, so it is not suggested; a video can be cut at another interval.
    expect(advice.some((a) => a?.includes('Cloud AI'))).toBe(false);
    expect(advice.some((a) => a?.startsWith('Upload it again with a different frame interval'))).toBe(true);
    expect(screen.getByRole('link', { name: 'support@frametext.app' })).toHaveAttribute('href', 'mailto:support@frametext.app');
    expect(screen.getByRole('link', { name: 'Look at the frames' })).toHaveAttribute('href', '/view-upload/up-9');
    expect(currentStep()).toBe('View');
  });

  it('says so for photos with no text at all, and suggests Cloud AI where it is offered but no interval', async () => {
    await finish([photo('a.jpg'), photo('b.jpg')], { textFound: { frames: 2, framesWithText: 0, words: 0 }, charged: { credits: 1, framesRead: 2 } }, { cloud: true });
    expect(screen.getByRole('heading', { level: 2, name: 'No Text Results Found' })).toBeInTheDocument();
    expect(screen.getByText(/No text was found on any of the 2 frames\./)).toBeInTheDocument();
    expect(screen.getByText(/1 credit was charged for the 2 frames read\./)).toBeInTheDocument();
    const advice = within(screen.getByRole('heading', { name: 'What to try' }).parentElement!).getAllByRole('listitem').map((li) => li.textContent);
    expect(advice.some((a) => a?.startsWith('Upload it again with the Cloud AI engine'))).toBe(true);
    expect(advice.some((a) => a?.includes('frame interval'))).toBe(false);
  });

  it('says the text is ready at the rule\'s edges: text on 5 % of the frames, or 10 words', async () => {
    expect(await finish([video()], { textFound: { frames: 120, framesWithText: 6, words: 6 }, charged: { credits: 12, framesRead: 120 } })).toHaveTextContent('Your text is ready');
    cleanup();
    expect(await finish([video()], { textFound: { frames: 120, framesWithText: 2, words: 10 }, charged: { credits: 12, framesRead: 120 } })).toHaveTextContent('Your text is ready');
    cleanup();
    expect(await finish([video()], { textFound: { frames: 120, framesWithText: 5, words: 9 }, charged: { credits: 12, framesRead: 120 } })).toHaveTextContent('No Text Results Found');
  });

  it('says the text is ready when the server does not say what was found', async () => {
    expect(await finish([video()], {})).toHaveTextContent('Your text is ready');
    expect(screen.getByRole('link', { name: 'View results' })).toHaveAttribute('href', '/view-upload/up-9');
  });
});
