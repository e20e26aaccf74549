import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../lib/store';
import { routes } from './routes';
import type { Session } from '../lib/auth/session';
import { fakeGateway } from '../testing/fakeGateway';

const session: Session = { idToken: 'x.eyJzdWIiOiJ1MSJ9.y', refreshToken: 'r', expiresAt: Date.now() + 3_600_000, user: { uid: 'u1', email: 'ada@example.com', firstLogin: false } };

function renderAt(path: string, signedIn: boolean) {
  const store = makeStore(signedIn ? { auth: { session } } : undefined);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return router;
}

beforeEach(() => fakeGateway());
afterEach(() => vi.unstubAllGlobals());

describe('route guards', () => {
  it.each(['/account', '/upload', '/uploads', '/onboarding', '/view-upload/abc', '/view-upload-numerical/abc', '/local'])('sends a signed-out visit to %s to the landing page', async (path) => {
    const router = renderAt(path, false);
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/');
  });

  it('lets a signed-in user reach a signed-in page', async () => {
    const router = renderAt('/uploads', true);
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/uploads');
  });

  it('sends unknown paths to the landing page', async () => {
    const router = renderAt('/no/such/page', true);
    await screen.findByRole('heading', { level: 1 });
    expect(router.state.location.pathname).toBe('/');
  });
});

describe('links between pages', () => {
  it.each([
    ['/', 'Sign up for free'],
    ['/demo', 'Sign up for free'],
  ])('on %s, "%s" opens the log-in page on its Sign Up tab', async (path, link) => {
    const router = renderAt(path, false);
    await userEvent.setup().click(await screen.findByRole('link', { name: link }));
    expect(await screen.findByRole('form', { name: 'Sign up form' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up', pressed: true })).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/login');
  });
});
