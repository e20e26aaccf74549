import { describe, expect, it } from 'vitest';
import { defaultSeriesName, seriesLabel } from './series-names.js';

describe('series names', () => {
  it('takes at most three words and adds " Block"', () => {
    expect(defaultSeriesName('Battery 20%')).toBe('Battery 20% Block');
    expect(defaultSeriesName('DC FAST CHARGER station one')).toBe('DC FAST CHARGER Block');
    expect(defaultSeriesName('  Power\n42.5 kW ')).toBe('Power 42.5 kW Block');
  });

  it('cuts long words to 15 characters and drops words while the name is over 25', () => {
    expect(defaultSeriesName('Supercalifragilistic')).toBe('Supercalifragil Block');
    // 'Temperature' (11) + 'inside' (6) + 'compartment' (11) = 30 with spaces: the third word goes.
    expect(defaultSeriesName('Temperature inside compartment')).toBe('Temperature inside Block');
    expect(defaultSeriesName('Extraordinarily unbelievable')).toBe('Extraordinarily Block');
  });

  it('falls back to the block id when the name is empty', () => {
    expect(defaultSeriesName('   ')).toBe('');
    expect(seriesLabel('', 'block-1-2')).toBe('block-1-2');
    expect(seriesLabel('  ', 'block-1-2')).toBe('block-1-2');
    expect(seriesLabel('Battery', 'block-1-2')).toBe('Battery');
  });
});
