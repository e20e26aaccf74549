import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../components/testUtils';
import { fakeGateway, json } from '../../testing/fakeGateway';
import CheckoutCancelledPage from './CheckoutCancelledPage';
import CheckoutSuccessPage, { CONFIRMATION_POLL_MS } from './CheckoutSuccessPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const pages = [
  { path: '/checkout-success', element: <CheckoutSuccessPage /> },
  { path: '/checkout-cancelled', element: <CheckoutCancelledPage /> },
];
const profile = (credits: number) => json({ uid: 'u1', email: 'ada@example.com', credits, subscription_tier: credits > 50 ? 'starter' : 'free', firstLogin: false });
const purchase = (status: string) =>
  json({ sessionId: 'cs_test_abc', credits: 500, status, createdAt: '2026-01-05T10:00:00.000Z', creditedAt: status === 'credited' ? '2026-01-05T10:00:03.000Z' : null });

describe('CheckoutSuccessPage', () => {
  it('waits for the payment confirmation, then shows the credits added and the new balance', async () => {
    let confirmed = false;
    const { calls } = fakeGateway({
      'GET /api/checkout-sessions/cs_test_abc': () => {
        const answer = purchase(confirmed ? 'credited' : 'open');
        confirmed = true; // the webhook lands between two polls
        return answer;
      },
      'GET /api/getUserData': () => profile(confirmed ? 550 : 50),
    });
    renderApp('/checkout-success?session_id=cs_test_abc', { session: testSession, pages });

    expect(screen.getByRole('heading', { name: 'Thank you for your purchase' })).toBeInTheDocument();
    expect(await screen.findByText('Waiting for the payment confirmation…')).toBeInTheDocument();
    const balance = await screen.findByText(/were added/, {}, { timeout: CONFIRMATION_POLL_MS + 3_000 });
    expect(balance).toHaveTextContent('500 credits were added. Your balance: 550 credits');
    expect(calls.filter((c) => c.path === '/api/checkout-sessions/cs_test_abc').length).toBe(2);
    expect(screen.getByRole('link', { name: 'Return to dashboard' })).toHaveAttribute('href', '/uploads');
  });

  it('says so when the payment did not go through', async () => {
    fakeGateway({ 'GET /api/checkout-sessions/cs_test_abc': () => purchase('failed'), 'GET /api/getUserData': () => profile(50) });
    renderApp('/checkout-success?session_id=cs_test_abc', { session: testSession, pages });
    expect(await screen.findByRole('heading', { name: 'Payment not completed' })).toBeInTheDocument();
    expect(screen.getByTestId('checkout-balance')).toHaveTextContent('The payment did not go through, so no credits were added.');
  });

  it('explains a bank payment that is still being confirmed', async () => {
    fakeGateway({ 'GET /api/checkout-sessions/cs_test_abc': () => purchase('processing'), 'GET /api/getUserData': () => profile(50) });
    renderApp('/checkout-success?session_id=cs_test_abc', { session: testSession, pages });
    expect(await screen.findByText(/Your bank is still confirming the payment/)).toBeInTheDocument();
  });

  it('shows the balance when it has no session to follow', async () => {
    const { calls } = fakeGateway({ 'GET /api/getUserData': () => profile(150) });
    renderApp('/checkout-success', { session: testSession, pages });
    await waitFor(() => expect(screen.getByTestId('checkout-balance')).toHaveTextContent('Your balance: 150 credits'));
    expect(calls.some((c) => c.path.startsWith('/api/checkout-sessions'))).toBe(false);
  });
});

describe('CheckoutCancelledPage', () => {
  it('says nothing was charged and leads back to the uploads list', () => {
    fakeGateway();
    renderApp('/checkout-cancelled', { session: testSession, pages });
    expect(screen.getByRole('heading', { name: 'Payment cancelled' })).toBeInTheDocument();
    expect(screen.getByText(/Nothing was charged and your balance is unchanged/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Return to dashboard' })).toHaveAttribute('href', '/uploads');
  });
});
