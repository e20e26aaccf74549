import { z } from 'zod';
import { serviceConfig } from '@frametext/service-kit';

export const configSchema = serviceConfig({
  PORT: z.coerce.number().int().min(0).max(65535).default(8105),
});

export type Config = z.infer<typeof configSchema>;
