import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../components/testUtils';
import { stopWatchingProfile } from '../../lib/credits/profileWatch';
import { fakeGateway, json } from '../../testing/fakeGateway';
import OnboardingPage from './OnboardingPage';

afterEach(() => {
  stopWatchingProfile();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const api = { 'GET /api/getUserData': () => json({ uid: 'u1', email: 'ada@example.com', credits: 120, subscription_tier: 'free', firstLogin: false }) };

describe('OnboardingPage', () => {
  it('gives the free grant and the rates from the server, and leads to the upload page', async () => {
    fakeGateway(api);
    renderApp('/onboarding', { session: testSession, pages: [{ path: '/onboarding', element: <OnboardingPage /> }] });
    expect(await screen.findByText('50 free credits')).toBeInTheDocument();
    const rates = screen.getByRole('table', { name: 'Credit cost by OCR engine' });
    expect(rates).toHaveTextContent('Basic10 frames per credit');
    expect(rates).toHaveTextContent('Local20 frames per credit');
    expect(rates).toHaveTextContent('Cloud AI1 credit per frame');
    for (const link of screen.getAllByRole('link', { name: 'Upload Media' })) expect(link).toHaveAttribute('href', '/upload');
  });

  it('offers the packs, and choosing one opens its payment page', async () => {
    const { calls } = fakeGateway({ ...api, 'POST /api/create-checkout-session': () => json({ url: 'https://pay.example.com/s/10' }) });
    const open = vi.spyOn(window, 'open').mockReturnValue({ opener: null } as unknown as Window);
    renderApp('/onboarding', { session: testSession, pages: [{ path: '/onboarding', element: <OnboardingPage /> }] });
    await userEvent.setup().click(await screen.findByRole('button', { name: /^100 credits \$1/ }));
    await waitFor(() => expect(open).toHaveBeenCalledWith('https://pay.example.com/s/10', '_blank'));
    expect(calls).toContainEqual({ method: 'POST', path: '/api/create-checkout-session', body: { credits: 100 } });
    expect(await screen.findByText(/payment page opened in a new tab/)).toBeInTheDocument();
  });
});
