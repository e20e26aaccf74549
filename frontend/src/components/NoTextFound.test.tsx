import { render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Engine, MediaContent } from '@frametext/contracts/rules';
import { makeStore } from '../lib/store';
import { fakeGateway } from '../testing/fakeGateway';
import { WhatToTry } from './NoTextFound';

afterEach(() => vi.unstubAllGlobals());

/** The advice shown, one sentence an item (the fake server does not offer Cloud AI). */
async function advice(engine: Engine, mediaContent: MediaContent, isVideo = true): Promise<string[]> {
  fakeGateway();
  render(
    <Provider store={makeStore()}>
      <WhatToTry engine={engine} mediaContent={mediaContent} isVideo={isVideo} />
    </Provider>,
  );
  const list = within(screen.getByRole('heading', { name: 'What to try' }).parentElement!);
  return (await list.findAllByRole('listitem')).map((li) => li.textContent ?? '');
}

describe('What to try after a reading with no text', () => {
  it('points a Basic upload read as slides or captions at Numerical, where seven-segment digits are read', async () => {
    const said = await advice('server', 'presentation');
    expect(said[0]).toBe('If the text is the digits of an LCD or LED display, upload it again with Media content Numerical: the Basic engine reads seven-segment digits only there.');
    expect(said.some((a) => a.startsWith('Upload it again with a different frame interval'))).toBe(true);
  });

  it('does not suggest Numerical again to a Numerical upload', async () => {
    const said = await advice('server', 'numerical');
    expect(said.join(' ')).not.toMatch(/seven-segment/);
    expect(said.some((a) => a.startsWith('Upload it again with a different frame interval'))).toBe(true);
  });

  it('suggests the Basic engine after the Local engine, which cannot read seven-segment digits', async () => {
    const said = await advice('local', 'numerical', false);
    expect(said[0]).toMatch(/^Upload it again with the Basic engine and Media content Numerical/);
    expect(said.some((a) => a.includes('frame interval'))).toBe(false);
  });
});
