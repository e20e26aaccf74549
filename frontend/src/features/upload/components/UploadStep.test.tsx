import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Profile } from '@frametext/contracts';
import { makeStore } from '../../../lib/store';
import { fakeGateway, json } from '../../../testing/fakeGateway';
import { testSession } from '../../../components/testUtils';
import { UploadStep } from './UploadStep';

const profile: Profile = { uid: 'u1', email: 'ada@example.com', credits: 50, subscription_tier: 'free', firstLogin: false };

afterEach(() => vi.unstubAllGlobals());

describe('the upload step with a file that is not a video', () => {
  it('a text file renamed .mp4 is not "Ready to upload": it says why and what to do, and Upload stays off', async () => {
    fakeGateway({ 'GET /api/getUserData': () => json(profile) });
    render(
      <Provider store={makeStore({ auth: { session: testSession } })}>
        <MemoryRouter>
          <UploadStep onStarted={() => undefined} />
        </MemoryRouter>
      </Provider>,
    );
    await waitFor(() => expect(screen.getByLabelText('Engine')).toHaveValue('server'));
    const renamed = new File(['Meeting notes, not a video.\n'], 'notes.mp4', { type: 'video/mp4' });
    await userEvent.setup().upload(screen.getByLabelText('Media files'), renamed);

    expect(await screen.findByRole('alert')).toHaveTextContent('This file is not a video your browser can read');
    expect(screen.getByRole('alert')).toHaveTextContent('Choose the original video file, or save the recording again as .mp4.');
    expect(screen.getByRole('alert')).not.toHaveTextContent('another browser');
    expect(screen.getByText('Cannot upload this file')).toBeInTheDocument();
    expect(screen.queryByText('Ready to upload')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload' })).toBeDisabled();
  });
});
