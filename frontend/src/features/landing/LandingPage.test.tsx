import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { PublicConfig } from '@frametext/contracts';
import { makeStore } from '../../lib/store';
import type { Session } from '../../lib/auth/session';
import { fakeGateway, json } from '../../testing/fakeGateway';
import LandingPage from './LandingPage';

const session: Session = { idToken: 'x.eyJzdWIiOiJ1MSJ9.y', refreshToken: 'r', expiresAt: Date.now() + 3_600_000, user: { uid: 'u1', email: 'ada@example.com', firstLogin: false } };

const config = (freeCredits: number): PublicConfig => ({
  freeCredits,
  purchases: 'simulated',
  engines: [
    { engine: 'cloud', available: false, reason: 'No Google Cloud Vision key is configured.', creditsPerFrame: 1, framesPerCredit: 1 },
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
});

/** Answers GET /api/config with `body` once `release` is called, so a test can look at the page before and after. */
function serveConfig(body: PublicConfig) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  fakeGateway({
    'GET /api/config': async () => {
      await gate;
      return json(body);
    },
  });
  return { release };
}

function renderLanding(signedIn: boolean) {
  const store = makeStore(signedIn ? { auth: { session } } : { auth: { session: null } });
  render(
    <Provider store={store}>
      <MemoryRouter>
        <LandingPage />
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('LandingPage', () => {
  it('offers "Sign up for free" to a signed-out visitor, and Start Textracting leads to log in', () => {
    serveConfig(config(20)).release();
    renderLanding(false);
    expect(screen.getByRole('heading', { level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Sign up for free' })).toHaveAttribute('href', '/login?mode=signup');
    expect(screen.queryByRole('link', { name: 'Go to Dashboard' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Try the demo' })).toHaveAttribute('href', '/demo');
    expect(screen.getByRole('link', { name: 'Start Textracting' })).toHaveAttribute('href', '/login');
  });

  it('offers "Go to Dashboard" to a signed-in user, and Start Textracting opens the wizard', () => {
    serveConfig(config(20)).release();
    renderLanding(true);
    expect(screen.getByRole('link', { name: 'Go to Dashboard' })).toHaveAttribute('href', '/uploads');
    expect(screen.queryByRole('link', { name: 'Sign up for free' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Start Textracting' })).toHaveAttribute('href', '/upload');
  });

  it('states the free-credit grant the server reports, and no figure before it answers', async () => {
    const { release } = serveConfig(config(37));
    renderLanding(false);
    expect(screen.queryByText(/free credits/i)).not.toBeInTheDocument();
    release();
    expect(await screen.findByText(/New accounts start with 37 free credits/)).toBeInTheDocument();
    expect(screen.getByText(/Every new account gets 37 free credits/)).toBeInTheDocument();
    expect(screen.queryByText(/\b(20|50) free credits/)).not.toBeInTheDocument();
  });

  it('shows why an engine is not available on this server, next to its frames per credit', async () => {
    serveConfig(config(20)).release();
    renderLanding(false);
    const cloud = screen.getByRole('listitem', { name: 'Cloud AI' });
    await waitFor(() => expect(cloud).toHaveTextContent('Not available on this server: No Google Cloud Vision key is configured.'));
    expect(cloud).toHaveTextContent('1 frame per credit');
    expect(screen.getByRole('listitem', { name: 'Basic' })).toHaveTextContent('10 frames per credit');
    expect(screen.getByRole('listitem', { name: 'Basic' })).not.toHaveTextContent('Not available');
    expect(screen.getByRole('listitem', { name: 'Local' })).toHaveTextContent('20 frames per credit');
  });

  it('lists the three credit packs and the custom-plan e-mail', () => {
    serveConfig(config(20)).release();
    renderLanding(false);
    for (const [credits, price] of [['100', '$1'], ['500', '$5'], ['2,500', '$20']] as const) {
      expect(screen.getByRole('heading', { name: `${credits} credits` }).parentElement).toHaveTextContent(price);
    }
    expect(screen.getByText('20% off')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'E-mail us' }).getAttribute('href')).toContain('subject=Enterprise%20Account%20Request');
  });

  it('links three mode cards to their blog posts', () => {
    serveConfig(config(20)).release();
    renderLanding(false);
    const hrefs = screen.getAllByRole('link').map((a) => a.getAttribute('href'));
    expect(hrefs).toEqual(expect.arrayContaining(['/blog/presentation-text-extraction', '/blog/ev-charge-curve-analysis', '/blog/caption-extraction']));
  });
});
