import { describe, expect, it } from 'vitest';
import { coresFromCfs, coresFromCpuMax, cpuBudget } from '../src/host/cpu-budget.js';

const files = (entries: Record<string, string>) => (file: string) => entries[file] ?? null;

describe('the CPU budget of a worker', () => {
  it('reads cgroup v2 cpu.max: no quota, two cores, half a core', () => {
    expect(coresFromCpuMax('max 100000\n')).toBeNull();
    expect(coresFromCpuMax('200000 100000\n')).toBe(2);
    expect(coresFromCpuMax('50000 100000')).toBe(1);
    expect(coresFromCpuMax('150000 100000')).toBe(1);
  });

  it('reads cgroup v1 quota and period; -1 is no quota', () => {
    expect(coresFromCfs('-1\n', '100000\n')).toBeNull();
    expect(coresFromCfs('400000\n', '100000\n')).toBe(4);
  });

  it('a 1-CPU container on a 32-core node runs one worker, and the quota never raises the count above the cores', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '100000 100000' }), 32)).toBe(1);
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': '800000 100000' }), 2)).toBe(2);
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu/cpu.cfs_quota_us': '300000', '/sys/fs/cgroup/cpu/cpu.cfs_period_us': '100000' }), 32)).toBe(3);
  });

  it('without a cgroup quota it uses the cores it may run on', () => {
    expect(cpuBudget(files({ '/sys/fs/cgroup/cpu.max': 'max 100000' }), 6)).toBe(6);
    expect(cpuBudget(files({}), 4)).toBe(4);
  });
});
