import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Provider } from 'react-redux';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeStore } from '../../../../lib/store';
import { ToastHost } from '../../../../components/ToastHost';
import { fakeGateway } from '../../../../testing/fakeGateway';
import { viewFromDetails } from '../../model';
import { sampleDetails } from '../../testing';
import PresentationView from './PresentationView';

/** A presentation upload whose frames (one every 2 s) show these texts. */
function slidesView(texts: string[], resultsUrl: string | null = null) {
  const base = sampleDetails({ mediaContent: 'presentation', uploadName: 'Lecture' });
  const details = {
    ...base,
    results: {
      ...base.results,
      results: texts.map(() => []),
      linesByFrame: texts.map((t) => t.split('\n').map((text) => ({ text }))),
      ocrResults: texts.map((text, i) => ({ t: i * 2, fileIndex: i, text, detections: [] })),
      resultsUrl,
    },
    urls: texts.map((_, i) => `http://files.test/${String(i * 2000).padStart(10, '0')}.jpg`),
  };
  return viewFromDetails('up-7', details);
}

function renderView(texts: string[], resultsUrl: string | null = null) {
  const store = makeStore();
  render(
    <Provider store={store}>
      <PresentationView view={slidesView(texts, resultsUrl)} />
      <ToastHost />
    </Provider>,
  );
  return { toasts: () => store.getState().ui.toasts.map((t) => t.text) };
}

const checkbox = (label: string) => screen.getByRole('checkbox', { name: `Select ${label}` });
const TEXTS = ['Welcome\nto the course', 'Welcome\nto the course', 'Agenda\nOne Two Three', 'Agenda\nOne Two Three Four', 'Thanks'];

afterEach(() => vi.unstubAllGlobals());

describe('PresentationView', () => {
  it('selects every frame but earlier builds at first, and marks the repeats of the frame before at 95%', () => {
    renderView(TEXTS);
    for (const label of ['Frame 1 (0:00)', 'Frame 2 (0:02)', 'Frame 4 (0:06)', 'Frame 5 (0:08)']) expect(checkbox(label)).toBeChecked();
    expect(checkbox('Frame 3 (0:04)')).not.toBeChecked();
    const list = screen.getByRole('list', { name: 'Frames' });
    const labelOf = (b: HTMLElement) => b.closest('li')!.querySelector('.slides-row__label')!.textContent;
    expect(within(list).getAllByText('Similar to previous').map(labelOf)).toEqual(['Frame 2 (0:02)']);
    expect(within(list).getAllByText('Earlier build').map(labelOf)).toEqual(['Frame 3 (0:04)']);
    expect(screen.getByText('4', { selector: 'strong' }).parentElement).toHaveTextContent('4 of 5 frames selected');
    expect(screen.getByText(/1 frame is an earlier build of the slide after it/)).toBeInTheDocument();
  });

  it('keeps one frame per slide of a deck that builds up, its fullest build, with its bullets written •', async () => {
    const user = userEvent.setup();
    renderView([
      'Quarterly review\ne Revenue grew in every region',
      'Quarterly review\ne Revenue grew in every region\n¢ Costs stayed flat',
      'Quarterly review\ne Revenue grew in every region\n¢ Costs stayed flat\ne Hiring is on plan',
      'What we learned\na Small releases are safer',
      'What we learned\na Small releases are safer\nm Write the test first',
      'Contact\ne-mail sales@example.com\n*Note: replies within a day',
    ]);
    expect(screen.getByText(/frames selected/)).toHaveTextContent('3 of 6 frames selected');
    await user.click(screen.getByRole('button', { name: 'Export selected text' }));
    const dialog = screen.getByRole('dialog', { name: 'Selected slides' });
    expect(within(dialog).getByLabelText('Contents of Lecture-selected-slides.txt').textContent).toBe(
      'Frame 3 (0:04)\nQuarterly review\n• Revenue grew in every region\n• Costs stayed flat\n• Hiring is on plan\n\n' +
        'Frame 5 (0:08)\nWhat we learned\n• Small releases are safer\n• Write the test first\n\n' +
        'Frame 6 (0:10)\nContact\ne-mail sales@example.com\n*Note: replies within a day\n',
    );
  });

  it('unselects the similar frames when the filter is applied, following the slider', async () => {
    const user = userEvent.setup();
    renderView(TEXTS);
    await user.click(screen.getByRole('button', { name: 'Unselect similar frames' }));
    expect(checkbox('Frame 2 (0:02)')).not.toBeChecked();
    expect(checkbox('Frame 3 (0:04)')).not.toBeChecked(); // an earlier build stays unselected
    expect(checkbox('Frame 4 (0:06)')).toBeChecked();

    // "Agenda One Two Three" against "... Four": 4 of 5 words = 80%.
    const slider = screen.getByRole('slider', { name: /Similarity threshold/ });
    expect(slider).toHaveAttribute('min', '80');
    expect(slider).toHaveAttribute('max', '100');
    expect(slider).toHaveValue('95');
    fireEvent.change(slider, { target: { value: '80' } });
    expect(screen.getByText('80%')).toBeInTheDocument();
    expect(screen.getAllByText('Similar to previous')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Unselect similar frames' }));
    expect(checkbox('Frame 4 (0:06)')).not.toBeChecked();
    expect(checkbox('Frame 1 (0:00)')).toBeChecked();
    expect(screen.getByText(/frames selected/)).toHaveTextContent('2 of 5 frames selected');
  });

  it('shows the lines of the frame clicked in the list', async () => {
    const user = userEvent.setup();
    renderView(TEXTS);
    expect(screen.getByRole('list', { name: 'Text of this frame' })).toHaveTextContent('Welcometo the course');
    await user.click(screen.getByRole('button', { name: /Frame 3 \(0:04\)/ }));
    expect(screen.getByRole('heading', { name: 'Frame 3 (0:04)' })).toBeInTheDocument();
    const lines = within(screen.getByRole('list', { name: 'Text of this frame' })).getAllByRole('listitem');
    expect(lines.map((l) => l.textContent)).toEqual(['Agenda', 'One Two Three']);
  });

  it('exports the selected frames, each under its label, and copies them to the clipboard', async () => {
    const user = userEvent.setup();
    const saved: { name: string; text: Promise<string> }[] = [];
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: (blob: Blob) => (saved.push({ name: '', text: blob.text() }), 'blob:x'), revokeObjectURL: () => {} }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved[saved.length - 1]!.name = this.download;
    });
    const { toasts } = renderView(TEXTS);
    await user.click(screen.getByRole('button', { name: 'Unselect similar frames' }));
    await user.click(checkbox('Frame 5 (0:08)'));
    await user.click(screen.getByRole('button', { name: 'Export selected text' }));

    const dialog = screen.getByRole('dialog', { name: 'Selected slides' });
    const expected = 'Frame 1 (0:00)\nWelcome\nto the course\n\nFrame 4 (0:06)\nAgenda\nOne Two Three Four\n';
    expect(within(dialog).getByLabelText('Contents of Lecture-selected-slides.txt').textContent).toBe(expected);

    await user.click(within(dialog).getByRole('button', { name: 'Download .txt' }));
    expect(saved.map((s) => s.name)).toEqual(['Lecture-selected-slides.txt']);
    expect(await saved[0]!.text).toBe(expected);

    await user.click(within(dialog).getByRole('button', { name: 'Copy to Clipboard' }));
    expect(await navigator.clipboard.readText()).toBe(expected);
    expect(toasts()).toEqual(['Contents copied to clipboard.']);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    click.mockRestore();
  });

  it('needs at least one selected frame to export', async () => {
    const user = userEvent.setup();
    renderView(TEXTS, 'http://files.test/results/presentation.txt');
    await user.click(screen.getByRole('button', { name: 'Select none' }));
    expect(screen.getByRole('button', { name: 'Export selected text' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Full results file' })).toBeDisabled();
    expect(screen.getByText('Select at least one frame to export.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Select all' }));
    expect(screen.getByRole('button', { name: 'Export selected text' })).toBeEnabled();
  });

  it('shows the upload’s presentation.txt from its results address, and says when it is not there yet', async () => {
    const user = userEvent.setup();
    let ready = true;
    const { requests } = fakeGateway({
      'GET http://files.test/results/presentation.txt': () =>
        ready ? new Response('Slide 1 (0:00)\nWelcome\n', { headers: { 'content-type': 'text/plain' } }) : new Response('missing', { status: 404 }),
    });
    renderView(TEXTS, 'http://files.test/results/presentation.txt');
    await user.click(screen.getByRole('button', { name: 'Full results file' }));
    const dialog = await screen.findByRole('dialog', { name: 'Presentation text' });
    expect(within(dialog).getByLabelText('Contents of Lecture-slides.txt').textContent).toBe('Slide 1 (0:00)\nWelcome\n');
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));

    expect(requests.map((r) => r.url)).toEqual(['http://files.test/results/presentation.txt']);

    ready = false;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    await user.click(screen.getByRole('button', { name: 'Full results file' }));
    await waitFor(() => expect(screen.getByText('Results not yet available')).toBeInTheDocument());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    warn.mockRestore();
  });
});
