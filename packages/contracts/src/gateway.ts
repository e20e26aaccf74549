import { z } from 'zod';

/** One service behind the gateway, as GET /api/health reports it. */
export const serviceHealthSchema = z.object({
  /** `ok`, or why not: the service's own status (`unavailable`, `draining`), `unreachable` or `http <status>`. */
  status: z.string(),
  checks: z.record(z.string(), z.string()),
});
export type ServiceHealth = z.infer<typeof serviceHealthSchema>;

/** GET /api/health: the system is `ok` only when every service behind the gateway is ready. */
export const systemHealthSchema = z.object({
  status: z.enum(['ok', 'unavailable']),
  services: z.record(z.string(), serviceHealthSchema),
});
export type SystemHealth = z.infer<typeof systemHealthSchema>;
