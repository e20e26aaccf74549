import { useEffect, useId } from 'react';
import { Link, NavLink, useLocation } from 'react-router-dom';
import { useAppDispatch, useAppSelector } from '../../lib/store';
import { selectTheme, themeToggled } from '../../lib/ui';
import { useSignOut } from '../../lib/auth/useSignOut';
import { useSession } from '../../lib/auth/hooks';
import { useDisclosure } from './useDisclosure';
import './navbar.css';

const SITE_LINKS = [
  { to: '/blog', label: 'Blog' },
  { to: '/about', label: 'About' },
  { to: '/privacy-policy', label: 'Privacy' },
] as const;

const SIGNED_IN_LINKS = [
  { to: '/upload', label: 'New Upload' },
  { to: '/local', label: 'Local Upload' },
  { to: '/uploads', label: 'Uploads' },
  { to: '/account', label: 'Account' },
] as const;

function ThemeToggle() {
  const theme = useAppSelector(selectTheme);
  const dispatch = useAppDispatch();
  const next = theme === 'light' ? 'dark' : 'light';
  return (
    <button type="button" className="btn btn--ghost btn--icon navbar__theme" aria-label={`Switch to ${next} theme`} title={`Switch to ${next} theme`} onClick={() => dispatch(themeToggled())}>
      <span aria-hidden="true">{theme === 'light' ? '☾' : '☀'}</span>
    </button>
  );
}

function TermsMenu() {
  const { open, toggle, close, buttonRef, panelRef } = useDisclosure();
  const id = useId();
  return (
    <div className="navbar__dropdown">
      <button ref={buttonRef} type="button" className="navbar__link navbar__link--button" aria-expanded={open} aria-controls={id} onClick={toggle}>
        Terms <span aria-hidden="true">▾</span>
      </button>
      <div ref={panelRef} id={id} className="navbar__panel" hidden={!open}>
        <Link to="/terms" className="navbar__item" onClick={close}>
          Terms of Service
        </Link>
        <Link to="/privacy-policy" className="navbar__item" onClick={close}>
          Privacy Policy
        </Link>
      </div>
    </div>
  );
}

function UserMenu() {
  const { open, toggle, close, buttonRef, panelRef } = useDisclosure();
  const id = useId();
  const session = useSession();
  const { signOut, busy } = useSignOut();

  const onLogout = () => {
    close();
    void signOut();
  };

  return (
    <div className="navbar__dropdown navbar__dropdown--end">
      <button ref={buttonRef} type="button" className="btn btn--secondary btn--sm" aria-expanded={open} aria-controls={id} onClick={toggle}>
        Menu <span aria-hidden="true">▾</span>
      </button>
      <div ref={panelRef} id={id} className="navbar__panel navbar__panel--end" hidden={!open}>
        {session && <p className="navbar__who small muted">{session.user.email}</p>}
        {SIGNED_IN_LINKS.map((l) => (
          <Link key={l.to} to={l.to} className="navbar__item" onClick={close}>
            {l.label}
          </Link>
        ))}
        {/* On a phone this is the only menu: it holds the site links too (shown below 48rem only, see navbar.css). */}
        <div className="navbar__site-items">
          {[...SITE_LINKS, { to: '/terms', label: 'Terms' }].map((l) => (
            <Link key={l.to} to={l.to} className="navbar__item" onClick={close}>
              {l.label}
            </Link>
          ))}
        </div>
        <button type="button" className="navbar__item navbar__item--button" onClick={onLogout} disabled={busy}>
          Logout
        </button>
      </div>
    </div>
  );
}

export function Navbar() {
  const session = useSession();
  const { open: siteOpen, close: closeSite, toggle: toggleSite, buttonRef: siteButtonRef, panelRef: sitePanelRef } = useDisclosure<HTMLButtonElement, HTMLDivElement>();
  const { pathname } = useLocation();
  useEffect(() => closeSite(), [pathname, closeSite]);

  return (
    <header className="navbar">
      <div className="container navbar__inner">
        <Link to="/" className="navbar__brand">
          <span className="navbar__logo" aria-hidden="true">
            F
          </span>
          FrameText
        </Link>
        {/* One menu on a phone: signed out, the site links fold under ☰; signed in, they are in the Menu. */}
        {!session && (
          <button
            ref={siteButtonRef}
            type="button"
            className="btn btn--ghost btn--icon navbar__burger"
            aria-expanded={siteOpen}
            aria-controls="site-links"
            aria-label={siteOpen ? 'Hide site links' : 'Show site links'}
            onClick={toggleSite}
          >
            <span aria-hidden="true">☰</span>
          </button>
        )}
        <nav ref={sitePanelRef} id="site-links" aria-label="Site" className={siteOpen ? 'navbar__links navbar__links--open' : 'navbar__links'}>
          {SITE_LINKS.map((l) => (
            <NavLink key={l.to} to={l.to} className="navbar__link">
              {l.label}
            </NavLink>
          ))}
          <TermsMenu />
        </nav>
        <div className="navbar__actions">
          <ThemeToggle />
          {session ? (
            <UserMenu />
          ) : (
            <Link to="/login" className="btn btn--primary btn--sm">
              Login
            </Link>
          )}
        </div>
      </div>
    </header>
  );
}
