import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../testUtils';
import { apiError, fakeGateway, json, testConfig } from '../../testing/fakeGateway';
import { PROFILE_WATCH_INTERVAL_MS, stopWatchingProfile } from '../../lib/credits/profileWatch';
import { PurchaseCreditsModal } from './PurchaseCreditsModal';
import { PURCHASES_UNAVAILABLE } from './PurchaseOptions';

afterEach(() => {
  stopWatchingProfile();
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const profile = (credits: number) => json({ uid: 'u1', email: 'ada@example.com', credits, subscription_tier: 'free', firstLogin: false });
const pages = [{ path: '/buy', element: <PurchaseCreditsModal onClose={() => undefined} /> }];

describe('PurchaseCreditsModal', () => {
  it('lists the three packs with their prices and the balance', async () => {
    fakeGateway({ 'GET /api/getUserData': () => profile(42) });
    renderApp('/buy', { session: testSession, pages });
    const dialog = screen.getByRole('dialog', { name: 'Purchase Credits' });
    expect(await screen.findByRole('button', { name: /100 credits \$1$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /500 credits \$5$/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /2,500 credits \$20 20% off/ })).toBeInTheDocument();
    await waitFor(() => expect(dialog).toHaveTextContent('42 credits'));
    expect(within(dialog).getByRole('link', { name: 'Ask about an enterprise account' })).toHaveAttribute('href', 'mailto:support@frametext.app?subject=Enterprise%20Account%20Request');
  });

  it('asks for a checkout of the chosen pack and opens the payment page in a new tab', async () => {
    const { calls } = fakeGateway({ 'GET /api/getUserData': () => profile(42), 'POST /api/create-checkout-session': () => json({ url: 'https://pay.example.com/s/1' }) });
    const tab = { opener: {} } as unknown as Window;
    const open = vi.spyOn(window, 'open').mockReturnValue(tab);
    renderApp('/buy', { session: testSession, pages });
    await userEvent.setup().click(await screen.findByRole('button', { name: /^500 credits/ }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://pay.example.com/s/1', '_blank'));
    expect(tab.opener).toBeNull();
    expect(calls).toContainEqual({ method: 'POST', path: '/api/create-checkout-session', body: { credits: 500 } });
    expect(await screen.findByText(/payment page opened in a new tab/)).toBeInTheDocument();
  });

  it('shows the new balance without a reload: the profile is fetched again every 5 s after the payment page opened', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let paid = false;
    const { calls } = fakeGateway({
      'GET /api/getUserData': () => profile(paid ? 542 : 42),
      'POST /api/create-checkout-session': () => json({ url: 'https://pay.example.com/s/2' }),
    });
    vi.spyOn(window, 'open').mockReturnValue({ opener: null } as unknown as Window);
    renderApp('/buy', { session: testSession, pages });
    const dialog = screen.getByRole('dialog', { name: 'Purchase Credits' });
    await waitFor(() => expect(dialog).toHaveTextContent('Your balance: 42 credits'));
    await userEvent.setup({ advanceTimers: vi.advanceTimersByTime }).click(await screen.findByRole('button', { name: /^500 credits/ }));
    await screen.findByText(/payment page opened in a new tab/);

    paid = true; // the webhook lands in the other tab
    const fetchesBefore = calls.filter((c) => c.path === '/api/getUserData').length;
    await act(async () => {
      await vi.advanceTimersByTimeAsync(PROFILE_WATCH_INTERVAL_MS);
    });
    await waitFor(() => expect(dialog).toHaveTextContent('Your balance: 542 credits'));
    expect(calls.filter((c) => c.path === '/api/getUserData').length).toBe(fetchesBefore + 1);
  });

  it("shows the server's words when the payment page cannot be made", async () => {
    fakeGateway({
      'GET /api/getUserData': () => profile(42),
      'POST /api/create-checkout-session': () => apiError(503, 'billing/payments-unavailable', 'Buying credits is not available on this server.'),
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const open = vi.spyOn(window, 'open');
    renderApp('/buy', { session: testSession, pages });
    await userEvent.setup().click(await screen.findByRole('button', { name: /^100 credits/ }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Buying credits is not available on this server.');
    expect(open).not.toHaveBeenCalled();
  });

  it('offers no pack when the server sells none (no Stripe, no simulated checkout), and says purchases are unavailable', async () => {
    const { calls } = fakeGateway({ 'GET /api/config': () => json({ ...testConfig, purchases: 'off' }), 'GET /api/getUserData': () => profile(42) });
    renderApp('/buy', { session: testSession, pages });
    const dialog = screen.getByRole('dialog', { name: 'Purchase Credits' });
    expect(await within(dialog).findByRole('status')).toHaveTextContent(PURCHASES_UNAVAILABLE);
    await waitFor(() => expect(dialog).toHaveTextContent('Your balance: 42 credits.'));
    expect(within(dialog).queryByRole('button', { name: /credits/ })).not.toBeInTheDocument();
    expect(dialog).not.toHaveTextContent('Choose a pack');
    expect(calls.filter((c) => c.path === '/api/create-checkout-session')).toEqual([]);
  });
});
