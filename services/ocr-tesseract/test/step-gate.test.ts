import { describe, expect, it } from 'vitest';
import { FIRST_FRAMES, RECHECK_EVERY, StepGate, type GateTicket } from '../src/domain/step-gate.js';

/** Frames of an upload through the gate one after another; a frame the step runs on gains and loses as given. How many ran it. */
async function ranOn(gate: StepGate, upload: string, frames: number, gained = 0, lost = 0): Promise<number> {
  let ran = 0;
  for (let i = 0; i < frames; i++) {
    const ticket = await gate.enter(upload);
    if (ticket.run) ran++;
    ticket.close(ticket.run ? { gained, lost } : undefined);
  }
  return ran;
}

const settled = async <T>(p: Promise<T>): Promise<boolean> => Promise.race([p.then(() => true), new Promise<boolean>((r) => setTimeout(() => r(false), 20))]);

describe('StepGate', () => {
  it('stops a step that gains nothing on an upload after its first frames, runs it again now and then, and never stops one that gains', async () => {
    const gate = new StepGate();
    // The segment reader on a talk (no digits) and on a meter.
    expect(await ranOn(gate, 'talk', 100)).toBe(FIRST_FRAMES + Math.floor(100 / RECHECK_EVERY));
    expect(await ranOn(gate, 'meter', 100, 3)).toBe(100);
  });

  it('stops a step that loses more than it gains, and keeps one that gains more', async () => {
    const gate = new StepGate();
    // The mask pass on a blue instrument screen (its readings mostly outdone) and on a filmed charger screen.
    expect(await ranOn(gate, 'instrument', 100, 1, 2)).toBe(FIRST_FRAMES + Math.floor(100 / RECHECK_EVERY));
    expect(await ranOn(gate, 'charger', 100, 2, 1)).toBe(100);
  });

  it('lets only the first frames try the step while it is undecided; the rest wait for their verdicts, then follow them', async () => {
    const gate = new StepGate();
    const trials = await Promise.all(Array.from({ length: FIRST_FRAMES }, () => gate.enter('burst')));
    expect(trials.every((t) => t.run)).toBe(true);
    const later = Array.from({ length: RECHECK_EVERY - FIRST_FRAMES }, () => gate.enter('burst'));
    expect(await settled(later[0]!)).toBe(false);
    for (const t of trials) t.close({ gained: 0, lost: 1 });
    // Each follows the verdict as its own turn has it: only the RECHECK_EVERY-th frame looks again.
    expect((await Promise.all(later)).map((t) => t.run)).toEqual(later.map((_, i) => i === later.length - 1));
  });

  it('lets a waiting frame try the step when a trial ends without a verdict (it failed, or could not judge)', async () => {
    const gate = new StepGate();
    const trials: GateTicket[] = await Promise.all(Array.from({ length: FIRST_FRAMES }, () => gate.enter('failing')));
    const next = gate.enter('failing');
    trials[0]!.close();
    expect((await next).run).toBe(true);
  });

  it('lets the frames of a forgotten upload go on', async () => {
    const gate = new StepGate(1);
    await Promise.all(Array.from({ length: FIRST_FRAMES }, () => gate.enter('old')));
    const waiting = gate.enter('old');
    await gate.enter('new');
    expect(await settled(waiting)).toBe(true);
  });
});
