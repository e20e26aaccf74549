import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { makeStore } from '../lib/store';
import { KEYS } from '../lib/storage';
import type { Session } from '../lib/auth/session';
import { Layout } from './layout/Layout';

/** Test-only helpers: a signed-in session and the app shell around a page (fetch is faked by testing/fakeGateway). */

export const testSession: Session = {
  idToken: 'x.eyJzdWIiOiJ1MSJ9.y',
  refreshToken: 'refresh-1',
  expiresAt: Date.now() + 3_600_000,
  user: { uid: 'u1', email: 'ada@example.com', firstLogin: false },
};

const page = (title: string) => <h1>{title}</h1>;

/** Renders the shell (navbar, toasts, footer) with `pages` and stand-ins for the usual destinations. */
export function renderApp(path: string, { session = null, pages = [], firstVisit = false }: { session?: Session | null; pages?: RouteObject[]; firstVisit?: boolean } = {}) {
  if (!firstVisit) localStorage.setItem(KEYS.gotStarted, 'true');
  const store = makeStore({ auth: { session } });
  const routes: RouteObject[] = [
    {
      element: <Layout />,
      children: [
        { path: '/', element: page('Home') },
        { path: '/uploads', element: page('Uploads') },
        { path: '/onboarding', element: page('Onboarding') },
        { path: '/upload', element: page('New upload') },
        { path: '/login', element: page('Login') },
        ...pages,
      ],
    },
  ];
  // Later entries win: a test's own page replaces the stand-in at the same path.
  const children = routes[0]!.children!;
  routes[0]!.children = children.filter((r, i) => !children.slice(i + 1).some((later) => later.path === r.path));
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router, ...view };
}

