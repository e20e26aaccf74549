import { METRIC_NAMES, type Knex, type ServiceMetrics } from '@frametext/service-kit';

/**
 * Uploads between "file received" and "processed", by status, and how long the one that has gone longest without
 * progress has waited (0 when none): what the stuck-uploads alert watches, before the watchdog fails them.
 */
export function registerUploadGauges(metrics: ServiceMetrics, db: Knex): void {
  metrics.gauge(METRIC_NAMES.uploadsInProgress, 'Uploads received and not yet processed or failed, by status', ['status'], async (set) => {
    const rows: { status: string; n: number }[] = await db('uploads').whereIn('status', ['uploaded', 'processing']).groupBy('status').select('status').count({ n: '*' });
    set({ status: 'uploaded' }, 0);
    set({ status: 'processing' }, 0);
    for (const r of rows) set({ status: r.status }, Number(r.n));
  });
  metrics.gauge(METRIC_NAMES.oldestProgressAge, 'Seconds since the upload longest without progress (a frame read, frames extracted) last moved', [], async (set) => {
    const row = (await db('uploads').whereIn('status', ['uploaded', 'processing']).min({ oldest: 'last_progress_at' }).first()) as { oldest: Date | null } | undefined;
    set({}, row?.oldest ? Math.max(0, (Date.now() - new Date(row.oldest).getTime()) / 1000) : 0);
  });
}
