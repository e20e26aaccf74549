import { lazy, Suspense, type ReactNode } from 'react';
import { Navigate, createBrowserRouter, type RouteObject } from 'react-router-dom';
import { Layout } from '../components/layout/Layout';
import { Spinner } from '../components/Spinner';
import { RequireAuth } from '../features/auth/components/RequireAuth';

// Each page is its own chunk: the landing page does not download the wizard.
const page = (load: () => Promise<{ default: React.ComponentType }>): ReactNode => {
  const Page = lazy(load);
  return (
    <Suspense fallback={<Spinner label="Loading" />}>
      <Page />
    </Suspense>
  );
};
const signedIn = (node: ReactNode) => <RequireAuth>{node}</RequireAuth>;

/**
 * The spec's route table. After log-in a first-time user goes to /onboarding, others to /uploads: the spec's
 * /welcome and /dashboard are not routes (docs/frontend.md).
 */
export const routes: RouteObject[] = [
  {
    element: <Layout />,
    children: [
      { path: '/', element: page(() => import('../features/landing/LandingPage')) },
      { path: '/about', element: page(() => import('../features/content/AboutPage')) },
      { path: '/blog', element: page(() => import('../features/content/BlogIndexPage')) },
      { path: '/blog/:slug', element: page(() => import('../features/content/BlogPostPage')) },
      { path: '/terms', element: page(() => import('../features/content/TermsPage')) },
      { path: '/privacy-policy', element: page(() => import('../features/content/PrivacyPage')) },
      { path: '/docs/api', element: page(() => import('../features/content/ApiReferencePage')) },
      { path: '/login', element: page(() => import('../features/auth/components/LoginPage')) },
      { path: '/reset-password', element: page(() => import('../features/auth/components/ResetPasswordPage')) },
      { path: '/confirm-email', element: page(() => import('../features/auth/components/ConfirmEmailPage')) },
      { path: '/demo', element: page(() => import('../features/results/DemoPage')) },
      { path: '/checkout-success', element: page(() => import('../features/credits/CheckoutSuccessPage')) },
      { path: '/checkout-cancelled', element: page(() => import('../features/credits/CheckoutCancelledPage')) },
      { path: '/upload', element: signedIn(page(() => import('../features/upload/UploadWizardPage'))) },
      { path: '/local', element: signedIn(page(() => import('../features/local/LocalPage'))) },
      { path: '/uploads', element: signedIn(page(() => import('../features/uploads/UploadsPage'))) },
      { path: '/account', element: signedIn(page(() => import('../features/account/AccountPage'))) },
      { path: '/onboarding', element: signedIn(page(() => import('../features/onboarding/OnboardingPage'))) },
      { path: '/view-upload/:uploadID', element: signedIn(page(() => import('../features/results/ResultsPage'))) },
      { path: '/view-upload-numerical/:uploadIDParam', element: signedIn(page(() => import('../features/results/ResultsPage'))) },
      { path: '*', element: <Navigate to="/" replace /> },
    ],
  },
];

export const createRouter = () => createBrowserRouter(routes);
