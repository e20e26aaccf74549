import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { ScannedFrame } from '../engine/scan';
import { FrameList } from './FrameList';

// Every frame of a screen starts with the same heading line: each row must still tell its frame apart.
const screenText = (clock: string, battery: number) => `DC FAST CHARGER\nBattery ${battery}%\nElapsed ${clock}`;

describe('FrameList', () => {
  it('shows each frame with its own heading and its own text', async () => {
    const frames: ScannedFrame[] = [
      { t: 0, text: screenText('00:00', 20) },
      { t: 5, text: screenText('00:05', 25) },
      { t: 10, text: '', missed: 'The frame at 0:10.000 could not be shown: the video stopped at 0:05.000.' },
    ];
    const onIndex = vi.fn();
    render(<FrameList frames={frames} index={1} onIndex={onIndex} />);

    const rows = within(screen.getByRole('region', { name: 'Frames' })).getAllByRole('button');
    expect(rows.map((row) => row.textContent)).toEqual([
      'Frame 1 (0:00)DC FAST CHARGER · Battery 20% · Elapsed 00:00',
      'Frame 2 (0:05)DC FAST CHARGER · Battery 25% · Elapsed 00:05',
      'Frame 3 (0:10)Not read: The frame at 0:10.000 could not be shown: the video stopped at 0:05.000.',
    ]);
    expect(rows[1]).toHaveAttribute('aria-current', 'true');
    await userEvent.setup().click(rows[2]!);
    expect(onIndex).toHaveBeenCalledWith(2);
  });

  it('tells frames under a second apart by their tenths', () => {
    const frames: ScannedFrame[] = [0, 0.5, 1].map((t) => ({ t, text: `T ${t}` }));
    render(<FrameList frames={frames} index={0} onIndex={() => undefined} />);

    expect(screen.getAllByRole('button').map((row) => row.firstChild?.textContent)).toEqual(['Frame 1 (0:00.0)', 'Frame 2 (0:00.5)', 'Frame 3 (0:01.0)']);
  });
});
