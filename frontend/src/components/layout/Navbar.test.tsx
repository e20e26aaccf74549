import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { persistAndSync } from '../../lib/store';
import { KEYS } from '../../lib/storage';
import { fakeGateway, noContent } from '../../testing/fakeGateway';
import { renderApp, testSession } from '../testUtils';

afterEach(() => {
  vi.unstubAllGlobals();
  delete document.documentElement.dataset.theme;
});

describe('Navbar', () => {
  it('offers Login to a signed-out visitor, with the site links and the Terms menu', async () => {
    const user = userEvent.setup();
    renderApp('/');
    const nav = screen.getByRole('navigation', { name: 'Site' });
    expect(screen.getByRole('link', { name: 'Login' })).toHaveAttribute('href', '/login');
    expect(screen.queryByRole('button', { name: 'Menu' })).not.toBeInTheDocument();
    for (const name of ['Blog', 'About', 'Privacy']) expect(nav).toContainElement(screen.getAllByRole('link', { name })[0]!);
    const terms = screen.getByRole('button', { name: 'Terms' });
    expect(terms).toHaveAttribute('aria-expanded', 'false');
    await user.click(terms);
    expect(terms).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getAllByRole('link', { name: 'Terms of Service' })[0]).toHaveAttribute('href', '/terms');
    await user.keyboard('{Escape}');
    expect(terms).toHaveAttribute('aria-expanded', 'false');
    expect(terms).toHaveFocus();
  });

  it('offers the Menu to a signed-in user, whose items lead to the signed-in pages', async () => {
    const user = userEvent.setup();
    // Signed-in pages ask whether the e-mail is confirmed (the banner).
    fakeGateway();
    const { router } = renderApp('/', { session: testSession });
    expect(screen.queryByRole('link', { name: 'Login' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    const hrefs = Object.fromEntries(['New Upload', 'Local Upload', 'Uploads', 'Account'].map((name) => [name, screen.getByRole('link', { name }).getAttribute('href')]));
    expect(hrefs).toEqual({ 'New Upload': '/upload', 'Local Upload': '/local', Uploads: '/uploads', Account: '/account' });
    await user.click(screen.getByRole('link', { name: 'Uploads' }));
    expect(router.state.location.pathname).toBe('/uploads');
    expect(screen.queryByRole('link', { name: 'New Upload' })).not.toBeInTheDocument();
  });

  it('gives a signed-in user one menu: no ☰ button, and the Menu holds the site links too (shown on a phone)', async () => {
    const user = userEvent.setup();
    fakeGateway();
    renderApp('/uploads', { session: testSession });
    expect(screen.queryByRole('button', { name: 'Show site links' })).not.toBeInTheDocument();
    const menu = screen.getByRole('button', { name: 'Menu' });
    await user.click(menu);
    const panel = document.getElementById(menu.getAttribute('aria-controls')!)!;
    const hrefs = Object.fromEntries(['Blog', 'About', 'Privacy', 'Terms'].map((name) => [name, within(panel).getByRole('link', { name }).getAttribute('href')]));
    expect(hrefs).toEqual({ Blog: '/blog', About: '/about', Privacy: '/privacy-policy', Terms: '/terms' });
  });

  it('gives a signed-out visitor the ☰ button for the site links', () => {
    renderApp('/');
    expect(screen.getByRole('button', { name: 'Show site links' })).toHaveAttribute('aria-controls', 'site-links');
  });

  it('logs out with the refresh token, forgets the session and goes home', async () => {
    const user = userEvent.setup();
    const { calls } = fakeGateway({ 'POST /api/auth/logout': noContent });
    const { router, store } = renderApp('/uploads', { session: testSession });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(store.getState().auth.session).toBeNull();
    expect(calls).toContainEqual({ method: 'POST', path: '/api/auth/logout', body: { refreshToken: 'refresh-1' } });
    expect(await screen.findByRole('link', { name: 'Login' })).toBeInTheDocument();
  });

  it('still signs out on this device when the server cannot be reached', async () => {
    const user = userEvent.setup();
    fakeGateway({ 'POST /api/auth/logout': () => Promise.reject(new TypeError('network down')) });
    const { store } = renderApp('/uploads', { session: testSession });
    await user.click(screen.getByRole('button', { name: 'Menu' }));
    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(store.getState().auth.session).toBeNull());
  });

  it('switches to the dark theme on <html> and keeps the choice for the next visit', async () => {
    const user = userEvent.setup();
    const { store } = renderApp('/');
    const stop = persistAndSync(store);
    expect(document.documentElement.dataset.theme).toBe('light');
    await user.click(screen.getByRole('button', { name: 'Switch to dark theme' }));
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(localStorage.getItem(KEYS.theme)).toBe('dark');
    await user.click(screen.getByRole('button', { name: 'Switch to light theme' }));
    expect(document.documentElement.dataset.theme).toBe('light');
    expect(localStorage.getItem(KEYS.theme)).toBe('light');
    stop();
  });
});
