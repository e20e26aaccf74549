import { describe, expect, it } from 'vitest';
import { CLOUD_NOT_RUNNING_REASON, CLOUD_UNCHECKED_REASON, engineAvailability } from '../src/bus/engine-availability.js';

function probe(answers: (number | Error)[]) {
  const asked: string[] = [];
  return {
    asked,
    queueConsumers: async (queue: string) => {
      asked.push(queue);
      const next = answers.shift() ?? 0;
      if (next instanceof Error) throw next;
      return next;
    },
  };
}

describe('engine availability', () => {
  it('offers Cloud AI only while a worker consumes its queue, and says why not otherwise', async () => {
    let t = 0;
    const p = probe([0, 2, new Error('broker down')]);
    const engines = engineAvailability({ ...p, cloudQueue: 'ocr-cloud', cacheMs: 1000, now: () => t });

    expect(await engines.all()).toEqual([
      { engine: 'cloud', available: false, reason: CLOUD_NOT_RUNNING_REASON },
      { engine: 'server', available: true, reason: null },
      { engine: 'local', available: true, reason: null },
    ]);
    t = 1000;
    expect(await engines.check('cloud')).toEqual({ engine: 'cloud', available: true, reason: null });
    t = 2000;
    expect(await engines.check('cloud')).toEqual({ engine: 'cloud', available: false, reason: CLOUD_UNCHECKED_REASON });
    expect(p.asked).toEqual(['ocr-cloud', 'ocr-cloud', 'ocr-cloud']);
  });

  it('asks the broker once per cache period however many pages read it', async () => {
    const p = probe([1, 0]);
    const engines = engineAvailability({ ...p, cloudQueue: 'q', cacheMs: 1000, now: () => 500 });
    const answers = await Promise.all([engines.check('cloud'), engines.check('cloud'), engines.all()]);
    expect(answers[0].available).toBe(true);
    expect(p.asked).toHaveLength(1);
  });
});
