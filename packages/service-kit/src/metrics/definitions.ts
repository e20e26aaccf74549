import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * Every FrameText metric, in one place: the services record them, and deploy/monitoring's dashboard and alert rules
 * may use only these names (and Node's default process metrics), which test/monitoring.test.ts checks. Each carries
 * the label `service`.
 */
export const METRIC_NAMES = {
  httpRequests: 'frametext_http_requests_total',
  httpDuration: 'frametext_http_request_duration_seconds',
  busMessages: 'frametext_bus_messages_total',
  outboxBacklog: 'frametext_outbox_backlog',
  outboxOldestAge: 'frametext_outbox_oldest_age_seconds',
  queueMessages: 'frametext_queue_messages',
  queueConsumers: 'frametext_queue_consumers',
  dbPoolConnections: 'frametext_db_pool_connections',
  ocrFrameDuration: 'frametext_ocr_frame_seconds',
  framesRead: 'frametext_frames_read_total',
  uploadStageDuration: 'frametext_upload_stage_seconds',
  uploadsInProgress: 'frametext_uploads_in_progress',
  oldestProgressAge: 'frametext_upload_oldest_progress_age_seconds',
  jobRuns: 'frametext_job_runs_total',
  jobDuration: 'frametext_job_seconds',
} as const;

/** What happened to a consumed message. */
export type BusOutcome = 'handled' | 'duplicate' | 'failed' | 'retried' | 'dead_lettered';

export interface ServiceMetrics {
  registry: Registry;
  httpRequests: Counter<'method' | 'route' | 'status_class'>;
  httpDuration: Histogram<'method' | 'route'>;
  busMessages: Counter<'queue' | 'outcome'>;
  ocrFrameDuration: Histogram<'engine'>;
  framesRead: Counter<'engine' | 'outcome'>;
  uploadStageDuration: Histogram<'stage' | 'engine'>;
  /** Runs of the service's scheduled jobs (JobScheduler), by outcome (done, failed), and their time. */
  jobRuns: Counter<'job' | 'outcome'>;
  jobDuration: Histogram<'job'>;
  /** Gauges whose value is read when Prometheus scrapes (backlogs, queue depth, pool use): registered by the kit. */
  gauge(name: string, help: string, labelNames: string[], collect: (set: (labels: Record<string, string>, value: number) => void) => Promise<void> | void): void;
}

/** The registry of one process, with Node's own metrics and every FrameText metric defined up front. */
export function createServiceMetrics(service: string): ServiceMetrics {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  return {
    registry,
    httpRequests: new Counter({ name: METRIC_NAMES.httpRequests, help: 'HTTP requests answered, by route template and status class', labelNames: ['method', 'route', 'status_class'], registers }),
    httpDuration: new Histogram({
      name: METRIC_NAMES.httpDuration,
      help: 'Time to answer an HTTP request',
      labelNames: ['method', 'route'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    }),
    busMessages: new Counter({ name: METRIC_NAMES.busMessages, help: 'Messages taken from a queue, by what became of them', labelNames: ['queue', 'outcome'], registers }),
    ocrFrameDuration: new Histogram({
      name: METRIC_NAMES.ocrFrameDuration,
      help: 'Time an OCR engine took to read one frame',
      labelNames: ['engine'],
      buckets: [0.1, 0.25, 0.5, 1, 2, 4, 8, 15, 30, 60],
      registers,
    }),
    framesRead: new Counter({ name: METRIC_NAMES.framesRead, help: 'Frames an OCR engine finished, read or unreadable, or dropped because their upload was deleted', labelNames: ['engine', 'outcome'], registers }),
    uploadStageDuration: new Histogram({
      name: METRIC_NAMES.uploadStageDuration,
      help: 'Time an upload spent in each stage: extraction (file received to frames extracted), ocr (to processed), total',
      labelNames: ['stage', 'engine'],
      buckets: [1, 5, 15, 30, 60, 120, 300, 600, 1800, 3600],
      registers,
    }),
    jobRuns: new Counter({ name: METRIC_NAMES.jobRuns, help: 'Runs of a scheduled job (sweeps, pruning, deliveries), by outcome', labelNames: ['job', 'outcome'], registers }),
    jobDuration: new Histogram({ name: METRIC_NAMES.jobDuration, help: 'Time one run of a scheduled job took', labelNames: ['job'], buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120], registers }),
    gauge(name, help, labelNames, collect) {
      new Gauge({
        name,
        help,
        labelNames,
        registers,
        async collect() {
          this.reset();
          try {
            await collect((labels, value) => this.set(labels, value));
          } catch {
            // Its source (the broker, the database) cannot answer now: this gauge has no samples in this scrape, and
            // the rest of the scrape still comes through, when the operator needs it most.
          }
        },
      });
    },
  };
}

/** Records one frame an OCR engine finished: its time, and whether it was read or unreadable. */
export function recordFrameRead(metrics: Pick<ServiceMetrics, 'ocrFrameDuration' | 'framesRead'>, frame: { engine: string; durationMs?: number; failureReason?: string | null }): void {
  if (frame.durationMs !== undefined) metrics.ocrFrameDuration.observe({ engine: frame.engine }, frame.durationMs / 1000);
  metrics.framesRead.inc({ engine: frame.engine, outcome: frame.failureReason ? 'unreadable' : 'read' });
}

/** Records one frame an OCR engine dropped, unread or with its text unpublished, because its upload was deleted. */
export function recordFrameCancelled(metrics: Pick<ServiceMetrics, 'framesRead'>, engine: string): void {
  metrics.framesRead.inc({ engine, outcome: 'cancelled' });
}
