// First, so the design system comes before every component's own CSS in the bundle.
import '../../styles/global.css';
import { useEffect } from 'react';
import { Outlet, useLocation } from 'react-router-dom';
import { useAppSelector } from '../../lib/store';
import { selectTheme } from '../../lib/ui';
import { EmailConfirmationBanner } from '../EmailConfirmationBanner';
import { ToastHost } from '../ToastHost';
import { Footer } from './Footer';
import { useSession } from '../../lib/auth/hooks';
import { GettingStartedModal } from './GettingStartedModal';
import { Navbar } from './Navbar';

/**
 * Pages where a first-visit modal would stand between a person and what they came to do. Signed-in people
 * get the same explanation from the onboarding page instead.
 */
const NO_WELCOME = ['/login', '/reset-password', '/confirm-email', '/checkout-success', '/checkout-cancelled'];

export function Layout() {
  const theme = useAppSelector(selectTheme);
  const { pathname } = useLocation();
  const session = useSession();

  useEffect(() => {
    document.documentElement.dataset.theme = theme;
  }, [theme]);

  return (
    <div className="app">
      <a href="#main" className="skip-link">
        Skip to content
      </a>
      <Navbar />
      {/* The page the mailed link opens says it all itself. */}
      {pathname !== '/confirm-email' && <EmailConfirmationBanner />}
      <main id="main" className="app__main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <ToastHost />
      {!session && !NO_WELCOME.includes(pathname) && <GettingStartedModal />}
    </div>
  );
}
