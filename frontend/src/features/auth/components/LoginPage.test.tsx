import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { renderApp, testSession } from '../../../components/testUtils';
import { apiError, fakeGateway, json, noContent } from '../../../testing/fakeGateway';
import LoginPage from './LoginPage';

afterEach(() => {
  vi.unstubAllGlobals();
});

const loginPage = [{ path: '/login', element: <LoginPage /> }];
const signedIn = (firstLogin: boolean, status = 200) =>
  json({ idToken: 'a.eyJzdWIiOiJ1MiJ9.b', refreshToken: 'r2', expiresIn: 3600, user: { uid: 'u2', email: 'bo@example.com', firstLogin } }, status);
const providers = (google: boolean) => () => json({ password: true, google });

async function fill(form: HTMLElement, email: string, password?: string) {
  const user = userEvent.setup();
  await user.type(within(form).getByLabelText('Email'), email);
  if (password !== undefined) await user.type(within(form).getByLabelText('Password'), password);
  return user;
}

describe('LoginPage', () => {
  it('logs in and goes to the uploads list', async () => {
    const { calls } = fakeGateway({ 'GET /api/auth/providers': providers(false), 'POST /api/auth/login': () => signedIn(false) });
    const { router, store } = renderApp('/login', { pages: loginPage });
    const form = screen.getByRole('form', { name: 'Log in form' });
    const user = await fill(form, 'bo@example.com', 'secret-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Log In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/uploads'));
    expect(store.getState().auth.session?.user.email).toBe('bo@example.com');
    expect(calls).toContainEqual({ method: 'POST', path: '/api/auth/login', body: { email: 'bo@example.com', password: 'secret-pass-1' } });
  });

  it('signs up and sends a first login to the onboarding', async () => {
    fakeGateway({ 'GET /api/auth/providers': providers(false), 'POST /api/auth/signup': () => signedIn(true, 201) });
    const { router } = renderApp('/login', { pages: loginPage });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign Up' }));
    const form = screen.getByRole('form', { name: 'Sign up form' });
    const user = await fill(form, 'bo@example.com', 'secret-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
  });

  it('shows the spec sentence for a known error and stays in the same mode', async () => {
    fakeGateway({ 'POST /api/auth/signup': () => apiError(409, 'auth/email-already-in-use', 'Taken.') });
    renderApp('/login', { pages: loginPage });
    await userEvent.setup().click(screen.getByRole('button', { name: 'Sign Up' }));
    const form = screen.getByRole('form', { name: 'Sign up form' });
    const user = await fill(form, 'bo@example.com', 'secret-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Email is already in use. Please log in or use a different email.');
    expect(screen.getByRole('form', { name: 'Sign up form' })).toBeInTheDocument();
  });

  it('after a wrong password says so, keeps the log-in form with the password cleared, and offers a reset', async () => {
    fakeGateway({ 'POST /api/auth/login': () => apiError(401, 'auth/invalid-credential', 'Invalid email or password.') });
    renderApp('/login', { pages: loginPage });
    const form = screen.getByRole('form', { name: 'Log in form' });
    const user = await fill(form, 'bo@example.com', 'wrong-pass-1');
    await user.click(within(form).getByRole('button', { name: 'Log In' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password.');
    expect(within(form).getByLabelText('Password')).toHaveValue('');
    expect(within(form).getByLabelText('Email')).toHaveValue('bo@example.com');
    expect(within(form).getByRole('button', { name: 'Log In' })).toBeEnabled();

    await user.click(screen.getByRole('button', { name: 'Reset your password' }));
    expect(screen.getByRole('form', { name: 'Reset password form' })).toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('bo@example.com');
  });

  it('opens on the Sign Up tab when the address asks for it', () => {
    fakeGateway();
    renderApp('/login?mode=signup', { pages: loginPage });
    expect(screen.getByRole('form', { name: 'Sign up form' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Sign Up', pressed: true })).toBeInTheDocument();
  });

  it('in forgot mode hides the password, sends the reset link and says so in a toast', async () => {
    const { calls } = fakeGateway({ 'POST /api/auth/password-reset': noContent });
    renderApp('/login', { pages: loginPage });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    expect(screen.queryByLabelText('Password')).not.toBeInTheDocument();
    const form = screen.getByRole('form', { name: 'Reset password form' });
    await user.type(within(form).getByLabelText('Email'), 'bo@example.com');
    await user.click(within(form).getByRole('button', { name: 'Reset Password' }));
    const toasts = screen.getAllByRole('status').find((el) => el.classList.contains('toasts'))!;
    await waitFor(() => expect(toasts).toHaveTextContent('Password reset link sent to your email.'));
    expect(calls).toContainEqual({ method: 'POST', path: '/api/auth/password-reset', body: { email: 'bo@example.com' } });
  });

  it('asks for the email when Reset Password is pressed without one, without calling the server', async () => {
    const { calls } = fakeGateway();
    renderApp('/login', { pages: loginPage });
    const user = userEvent.setup();
    await user.click(screen.getByRole('button', { name: 'Forgot password?' }));
    await user.click(screen.getByRole('button', { name: 'Reset Password' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Please fill in your email and click "Forgot password" again.');
    expect(calls.filter((c) => c.path === '/api/auth/password-reset')).toEqual([]);
  });

  it('shows Google sign-in only when the server has it on', async () => {
    fakeGateway({ 'GET /api/auth/providers': providers(true) });
    const first = renderApp('/login', { pages: loginPage });
    expect(await screen.findByRole('link', { name: /Continue with Google/ })).toHaveAttribute('href', '/api/auth/google/start');
    first.unmount();
    vi.unstubAllGlobals();

    const { calls } = fakeGateway({ 'GET /api/auth/providers': providers(false) });
    renderApp('/login', { pages: loginPage });
    await waitFor(() => expect(calls.length).toBeGreaterThan(0));
    expect(screen.queryByRole('link', { name: /Google/ })).not.toBeInTheDocument();
  });

  it('signs in with the tokens Google sign-in left in the fragment', async () => {
    fakeGateway();
    const idToken = `h.${btoa(JSON.stringify({ sub: 'g-1', email: 'gia@example.com' }))}.s`;
    const { router, store } = renderApp(`/login#idToken=${idToken}&refreshToken=rg&expiresIn=3600&firstLogin=true`, { pages: loginPage });
    await waitFor(() => expect(router.state.location.pathname).toBe('/onboarding'));
    expect(store.getState().auth.session?.user).toEqual({ uid: 'g-1', email: 'gia@example.com', firstLogin: true });
  });

  it('shows a Google sign-in error from the fragment', async () => {
    fakeGateway();
    renderApp('/login#error=auth%2Foauth-failed&message=Google%20sign-in%20was%20cancelled.', { pages: loginPage });
    expect(await screen.findByRole('alert')).toHaveTextContent('An error occurred: Google sign-in was cancelled.');
  });

  it('sends a signed-in visitor on to the uploads list', async () => {
    fakeGateway();
    const { router } = renderApp('/login', { session: testSession, pages: loginPage });
    await waitFor(() => expect(router.state.location.pathname).toBe('/uploads'));
  });
});
