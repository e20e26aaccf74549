import { render, screen } from '@testing-library/react';
import { Provider } from 'react-redux';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../lib/store';
import DemoPage from './DemoPage';
import { apiError, fakeGateway, json } from '../../testing/fakeGateway';
import { sampleDetails } from './testing';

function renderDemo(state?: unknown) {
  const store = makeStore({ auth: { session: null } });
  render(
    <Provider store={store}>
      <MemoryRouter initialEntries={[{ pathname: '/demo', state }]}>
        <Routes>
          <Route path="/demo" element={<DemoPage />} />
        </Routes>
      </MemoryRouter>
    </Provider>,
  );
}

afterEach(() => vi.unstubAllGlobals());

describe('DemoPage', () => {
  it('loads the public demo without a session and invites to sign up', async () => {
    const { requests } = fakeGateway({ 'GET /api/getUploadDetails/demo': () => json(sampleDetails({ uploadName: 'Demo: charger screen' })) });
    renderDemo();
    expect(await screen.findByRole('heading', { name: 'Demo: charger screen', level: 1 })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Numerical' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('complementary', { name: 'About this demo' })).toHaveTextContent('This is the demo.');
    expect(screen.getByRole('link', { name: 'Sign up for free' })).toHaveAttribute('href', '/login?mode=signup');
    expect(requests.map((r) => new URL(r.url).pathname)).toEqual(['/api/getUploadDetails/demo']);
    expect(requests[0]!.headers.get('authorization')).toBeNull();
  });

  it('shows the data the landing page handed over without fetching it again', async () => {
    const { requests } = fakeGateway();
    renderDemo({ demoData: sampleDetails({ uploadName: 'Handed over' }) });
    expect(await screen.findByRole('heading', { name: 'Handed over', level: 1 })).toBeInTheDocument();
    expect(requests).toHaveLength(0);
  });

  it('says why when the demo is not ready', async () => {
    fakeGateway({ 'GET /api/getUploadDetails/demo': () => apiError(404, 'results/demo-not-ready', 'The demo is being prepared. Try again in a minute.') });
    renderDemo();
    expect(await screen.findByRole('alert')).toHaveTextContent('The demo is being prepared. Try again in a minute.');
  });
});
