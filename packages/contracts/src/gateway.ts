import { z } from 'zod';

/** One service behind the gateway, as GET /api/health reports it. */
export const serviceHealthSchema = z.object({
  /**
   * `ok`, `scaled-to-zero` (a worker with no replica running, started when work arrives: not a fault), or why not:
   * the service's own status (`unavailable`, `draining`), `unreachable` or `http <status>`.
   */
  status: z.string(),
  checks: z.record(z.string(), z.string()),
});
export type ServiceHealth = z.infer<typeof serviceHealthSchema>;

/** GET /api/health: the system is `ok` only when every service behind the gateway is ready or scaled to zero. */
export const systemHealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  services: z.record(z.string(), serviceHealthSchema),
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;
