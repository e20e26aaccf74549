import { render } from '@testing-library/react';
import { Provider } from 'react-redux';
import { RouterProvider, createMemoryRouter, type RouteObject } from 'react-router-dom';
import { makeStore } from '../lib/store';
import { KEYS } from '../lib/storage';
import type { Session } from '../lib/auth/session';
import { fakeGateway, json, type Handler as FetchHandler } from '../testing/fakeGateway';
import { Layout } from './layout/Layout';

/** Test-only helpers: a signed-in session, a fake gateway on fetch, and the app shell around a page. */

export const testSession: Session = {
  idToken: 'x.eyJzdWIiOiJ1MSJ9.y',
  refreshToken: 'refresh-1',
  expiresAt: Date.now() + 3_600_000,
  user: { uid: 'u1', email: 'ada@example.com', firstLogin: false },
};

export interface Answer {
  status?: number;
  body?: unknown;
}
export type Handler = (request: Request, body: unknown) => Answer | Promise<Answer>;

/** Fakes the gateway: `routes` maps "METHOD /api/path" to an answer or a handler of (request, JSON body). */
export function mockApi(routes: Record<string, Answer | Handler>) {
  const handlers: Record<string, FetchHandler> = {};
  for (const [key, route] of Object.entries(routes)) {
    handlers[key] = async (request) => {
      const text = request.method === 'GET' ? '' : await request.clone().text();
      const answer = typeof route === 'function' ? await route(request, text ? (JSON.parse(text) as unknown) : undefined) : route;
      return json(answer.body ?? {}, answer.status ?? 200);
    };
  }
  const { fetchMock, calls } = fakeGateway(handlers);
  return { fetchMock, calls };
}

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

