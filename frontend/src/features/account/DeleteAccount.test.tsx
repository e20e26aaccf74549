import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../components/testUtils';
import { apiError, fakeGateway, json, noContent, type Handler } from '../../testing/fakeGateway';
import { stopWatchingProfile } from '../../lib/credits/profileWatch';
import AccountPage from './AccountPage';

afterEach(() => {
  stopWatchingProfile();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const profile = () => json({ uid: 'u1', email: 'ada@example.com', credits: 120, subscription_tier: 'free', firstLogin: false });
const proof = (kind: 'password' | 'recent-sign-in' | 'sign-in-again') => () => json({ proof: kind, recentSignInMinutes: 5 });
const needsPassword = proof('password');
const wrongPassword = () => apiError(401, 'auth/invalid-credential', 'Invalid email or password.');

function setup(routes: Record<string, Handler>, session = testSession) {
  const api = fakeGateway({ 'GET /api/getUserData': profile, 'POST /api/auth/logout': noContent, ...routes });
  const user = userEvent.setup();
  const app = renderApp('/account', { session, pages: [{ path: '/account', element: <AccountPage /> }] });
  return { ...api, ...app, user };
}

async function openDialog(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('button', { name: 'Delete account' }));
  return screen.getByRole('dialog', { name: 'Delete your account?' });
}

const deleteCalls = (calls: { method: string; path: string; body: unknown }[]) => calls.filter((c) => c.path === '/api/auth/delete-account');

describe('Delete account on the Account page', () => {
  it('says what goes, asks for the password, and after the deletion signs out to the home page with a toast', async () => {
    let attempts = 0;
    const { calls, user, router, store } = setup({
      'POST /api/auth/delete-account/proof': needsPassword,
      'POST /api/auth/delete-account': () => (++attempts === 1 ? wrongPassword() : noContent()),
    });
    // Below everything else on the page.
    expect(await screen.findByRole('heading', { name: 'Delete account' })).toBeInTheDocument();
    await screen.findByText('120');
    const dialog = await openDialog(user);

    expect(dialog).toHaveTextContent('This cannot be undone.');
    expect(dialog).toHaveTextContent('your account and its sign-in (ada@example.com)');
    expect(dialog).toHaveTextContent('all your uploads, their files and their results');
    expect(dialog).toHaveTextContent('your remaining 120 credits: they are forfeited and cannot be refunded.');
    const password = await within(dialog).findByLabelText('Password');
    await waitFor(() => expect(password).toHaveFocus());
    expect(password).toHaveAttribute('type', 'password');
    expect(password).toHaveAttribute('autocomplete', 'current-password');

    // A wrong password: said next to the field, and the person is still signed in.
    await user.type(password, 'not my password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    const error = await within(dialog).findByRole('alert');
    expect(error).toHaveTextContent('That is not your password. Please try again.');
    expect(password).toHaveAttribute('aria-invalid', 'true');
    expect(password).toHaveAttribute('aria-describedby', error.id);
    expect(store.getState().auth.session).not.toBeNull();

    // The right one, sent with Enter from the field.
    await user.clear(password);
    await user.type(password, 'correct horse 42{Enter}');
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.session).toBeNull();
    expect(await screen.findByText('Your account has been deleted, with your uploads and their files.')).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: 'Home' })).toBeInTheDocument();
    expect(deleteCalls(calls).map((c) => c.body)).toEqual([
      { refreshToken: 'refresh-1', password: 'not my password' },
      { refreshToken: 'refresh-1', password: 'correct horse 42' },
    ]);
    expect(calls.filter((c) => c.path === '/api/auth/delete-account/proof').map((c) => c.body)).toEqual([{ refreshToken: 'refresh-1' }]);
    // The server ended every session itself: no log-out call is needed.
    expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(false);
  });

  it('asks for the password it needs before sending anything', async () => {
    const { calls, user } = setup({ 'POST /api/auth/delete-account/proof': needsPassword, 'POST /api/auth/delete-account': noContent });
    const dialog = await openDialog(user);
    await within(dialog).findByLabelText('Password');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Please fill in your password.');
    expect(deleteCalls(calls)).toEqual([]);
  });

  it('Cancel and Escape delete nothing, and give the focus back to the button', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const { calls, user, store } = setup({ 'POST /api/auth/delete-account/proof': async () => (await answered, needsPassword()) });
    const dialog = await openDialog(user);
    // While the session is checked, Cancel has the focus, so Enter never deletes by accident; the confirm button waits.
    expect(within(dialog).getByRole('status')).toHaveTextContent('Checking your session…');
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveFocus();
    expect(within(dialog).getByRole('button', { name: 'Delete account' })).toBeDisabled();
    answer();
    // The password field takes the focus once it shows.
    await waitFor(() => expect(within(dialog).getByLabelText('Password')).toHaveFocus());
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Delete account' })).toHaveFocus();

    await openDialog(user);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(deleteCalls(calls)).toEqual([]);
    expect(store.getState().auth.session).not.toBeNull();
  });

  it('a Google account signed in moments ago needs no password', async () => {
    const { calls, user, router, store } = setup({
      'POST /api/auth/delete-account/proof': proof('recent-sign-in'),
      'POST /api/auth/delete-account': noContent,
    });
    const dialog = await openDialog(user);
    expect(await within(dialog).findByText('You signed in with Google a moment ago, which is proof enough that it is you.')).toBeInTheDocument();
    expect(within(dialog).queryByLabelText('Password')).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.session).toBeNull();
    expect(deleteCalls(calls).map((c) => c.body)).toEqual([{ refreshToken: 'refresh-1' }]);
  });

  it('a Google account whose sign-in is too old is asked to sign in again, and nothing is deleted', async () => {
    const { calls, user, router, store } = setup({ 'POST /api/auth/delete-account/proof': proof('sign-in-again') });
    const dialog = await openDialog(user);
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'For your safety, deleting an account that signs in with Google needs a sign-in from the last 5 minutes. Sign in again, then come back to Account to delete it.',
    );
    expect(within(dialog).queryByRole('button', { name: 'Delete account' })).not.toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Sign in again' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(store.getState().auth.session).toBeNull();
    await waitFor(() => expect(calls.some((c) => c.path === '/api/auth/logout')).toBe(true));
    expect(deleteCalls(calls)).toEqual([]);
  });

  it('when the server finds the sign-in too old after all, it says so and offers to sign in again', async () => {
    const { user, store } = setup({
      'POST /api/auth/delete-account/proof': proof('recent-sign-in'),
      'POST /api/auth/delete-account': () =>
        apiError(401, 'auth/requires-recent-login', 'For your safety, deleting an account that signs in with Google needs a sign-in from the last 5 minutes. Please sign in again, then delete it.'),
    });
    const dialog = await openDialog(user);
    await within(dialog).findByText(/proof enough/);
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('needs a sign-in from the last 5 minutes. Please sign in again, then delete it.');
    expect(within(dialog).getByRole('button', { name: 'Sign in again' })).toBeInTheDocument();
    expect(store.getState().auth.session).not.toBeNull();
  });

  it('sends the refresh token current when the call goes out, after the access token was refreshed', async () => {
    const expiring = { ...testSession, expiresAt: Date.now() + 30_000 };
    const { calls, user, router } = setup(
      {
        'POST /api/auth/refresh': () => json({ idToken: 'x.eyJzdWIiOiJ1MSJ9.z', refreshToken: 'refresh-2', expiresIn: 600 }),
        'POST /api/auth/delete-account/proof': needsPassword,
        'POST /api/auth/delete-account': noContent,
      },
      expiring,
    );
    const dialog = await openDialog(user);
    await user.type(await within(dialog).findByLabelText('Password'), 'correct horse 42');
    await user.click(within(dialog).getByRole('button', { name: 'Delete account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(calls.filter((c) => c.path === '/api/auth/refresh').map((c) => c.body)).toEqual([{ refreshToken: 'refresh-1' }]);
    expect(deleteCalls(calls).map((c) => c.body)).toEqual([{ refreshToken: 'refresh-2', password: 'correct horse 42' }]);
  });
});
