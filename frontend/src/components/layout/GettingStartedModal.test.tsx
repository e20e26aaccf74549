import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { KEYS } from '../../lib/storage';
import { renderApp } from '../testUtils';

describe('the getting-started modal', () => {
  it('opens on a first visit, explains the three steps, and does not come back once closed', async () => {
    const user = userEvent.setup();
    const first = renderApp('/', { firstVisit: true });
    const dialog = screen.getByRole('dialog', { name: 'Getting started with FrameText' });
    expect(dialog).toHaveTextContent('Upload your media');
    expect(dialog).toHaveTextContent('We read the text');
    expect(dialog).toHaveTextContent('View and export');
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(localStorage.getItem(KEYS.gotStarted)).not.toBeNull();
    first.unmount();

    renderApp('/', { firstVisit: true });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('stays out of the way on the login page', () => {
    renderApp('/login', { firstVisit: true });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
});
