import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../components/testUtils';
import { fakeGateway, json, noContent } from '../../testing/fakeGateway';
import AccountPage from './AccountPage';
import { stopWatchingProfile } from '../../lib/credits/profileWatch';

afterEach(() => {
  stopWatchingProfile();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const config = () =>
  json({
    freeCredits: 50,
    purchases: 'simulated',
    engines: [
      { engine: 'cloud', available: false, reason: 'Cloud AI is not configured on this server; use Basic.', creditsPerFrame: 1, framesPerCredit: 1 },
      { engine: 'server', available: true, reason: null, creditsPerFrame: 0.1, framesPerCredit: 10 },
      { engine: 'local', available: true, reason: null, creditsPerFrame: 0.05, framesPerCredit: 20 },
    ],
    maxFrames: 360,
    localMaxFrames: 200,
    frameIntervals: [15],
    defaultFrameInterval: 15,
    localScanIntervals: [5],
    defaultLocalScanInterval: 5,
    creditPacks: [
      { credits: 100, priceCents: 100 },
      { credits: 500, priceCents: 500 },
      { credits: 2500, priceCents: 2000 },
    ],
    retentionDays: 30,
  });
const profile = (credits: number, tier: string) => json({ uid: 'u1', email: 'ada@example.com', credits, subscription_tier: tier, firstLogin: false });
const api = { 'GET /api/config': config, 'GET /api/getUserData': () => profile(120, 'free'), 'POST /api/auth/logout': noContent };

describe('AccountPage', () => {
  it('shows the email read-only, the balance, the plan, support and the enterprise request link', async () => {
    fakeGateway(api);
    renderApp('/account', { session: testSession, pages: [{ path: '/account', element: <AccountPage /> }] });
    const email = screen.getByLabelText('Email');
    expect(email).toHaveValue('ada@example.com');
    expect(email).toHaveAttribute('readonly');
    expect(await screen.findByText('120')).toBeInTheDocument();
    expect(screen.getByText('Free')).toBeInTheDocument();
    expect(screen.getByText('You are on the free credits every new account gets. Buying any pack makes you Starter.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Enterprise Account Request' })).toHaveAttribute('href', 'mailto:support@frametext.app?subject=Enterprise%20Account%20Request');
    expect(screen.getByRole('link', { name: 'support@frametext.app' })).toHaveAttribute('href', 'mailto:support@frametext.app');
  });

  it('opens the Purchase Credits dialog and signs out', async () => {
    fakeGateway(api);
    const user = userEvent.setup();
    const { router, store } = renderApp('/account', { session: testSession, pages: [{ path: '/account', element: <AccountPage /> }] });
    await user.click(screen.getByRole('button', { name: 'Purchase Credits' }));
    expect(screen.getByRole('dialog', { name: 'Purchase Credits' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    await user.click(screen.getByRole('button', { name: 'Sign out' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.session).toBeNull();
  });

  it('names the plan the purchases reached', async () => {
    fakeGateway({ ...api, 'GET /api/getUserData': () => profile(3000, 'pro') });
    renderApp('/account', { session: testSession, pages: [{ path: '/account', element: <AccountPage /> }] });
    expect(await screen.findByText('Pro')).toBeInTheDocument();
    expect(screen.getByText(/You have bought 2,500 credits or more/)).toBeInTheDocument();
  });

  it('buys a pack straight from the purchase options: the payment page opens in a new tab', async () => {
    const { calls } = fakeGateway({ ...api, 'POST /api/create-checkout-session': () => json({ url: 'https://pay.example.com/s/9' }) });
    const open = vi.spyOn(window, 'open').mockReturnValue({ opener: null } as unknown as Window);
    renderApp('/account', { session: testSession, pages: [{ path: '/account', element: <AccountPage /> }] });
    await userEvent.setup().click(await screen.findByRole('button', { name: /^2,500 credits/ }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://pay.example.com/s/9', '_blank'));
    expect(calls).toContainEqual({ method: 'POST', path: '/api/create-checkout-session', body: { credits: 2500 } });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
