import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

/**
 * Cores a quota allows, from cgroup v2's `cpu.max` ("<quota> <period>" or "max <period>"): null when there is no
 * quota. A fraction counts as one core (a 500m pod still runs one process at a time).
 */
export function coresFromCpuMax(text: string): number | null {
  const [quota, period] = text.trim().split(/\s+/);
  if (!quota || quota === 'max') return null;
  return coresFrom(Number(quota), Number(period));
}

/** The same from cgroup v1's cpu.cfs_quota_us and cpu.cfs_period_us (a quota of -1 means none). */
export function coresFromCfs(quotaText: string, periodText: string): number | null {
  const quota = Number(quotaText.trim());
  if (quota < 0) return null;
  return coresFrom(quota, Number(periodText.trim()));
}

function coresFrom(quota: number, period: number): number | null {
  if (!Number.isFinite(quota) || !Number.isFinite(period) || quota <= 0 || period <= 0) return null;
  return Math.max(1, Math.floor(quota / period));
}

const readOrNull = (file: string): string | null => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return null;
  }
};

/**
 * How many CPU-bound workers this process should run: the container's CPU quota when it has one (a 1-CPU pod on a
 * 32-core node gets 1), otherwise the cores it may run on. Node's availableParallelism follows CPU affinity only, not
 * the quota that Kubernetes' CPU limits and `docker run --cpus` set.
 */
export function cpuBudget(read: (file: string) => string | null = readOrNull, cores: number = availableParallelism()): number {
  const v2 = read('/sys/fs/cgroup/cpu.max');
  const v1Quota = read('/sys/fs/cgroup/cpu/cpu.cfs_quota_us') ?? read('/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_quota_us');
  const v1Period = read('/sys/fs/cgroup/cpu/cpu.cfs_period_us') ?? read('/sys/fs/cgroup/cpu,cpuacct/cpu.cfs_period_us');
  const quota = v2 !== null ? coresFromCpuMax(v2) : v1Quota !== null && v1Period !== null ? coresFromCfs(v1Quota, v1Period) : null;
  return Math.max(1, Math.min(cores, quota ?? cores));
}
