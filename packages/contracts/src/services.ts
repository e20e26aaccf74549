import type { EventType } from './events.js';
import { SERVICES } from './registry.js';

/** A process of FrameText, by its name in the registry (src/registry.js). */
export type ServiceName = (typeof SERVICES)[number]['name'];

/** One process, as the registry lists it. */
export interface ServiceEntry {
  /** Folder under services/, its queue, its compose service and Kubernetes Deployment. */
  name: ServiceName;
  /** Default port (each service's PORT setting overrides it). */
  port: number;
  /** Postgres schema it owns; null for the gateway, which has no database. */
  schema: string | null;
  /** Events it consumes from its queue `<name>`. */
  consumes: readonly EventType[];
  /** Events it publishes through its outbox. */
  publishes: readonly EventType[];
}

/** Every process, in start order, the gateway last. The `satisfies` checks each event name against the contracts. */
export const SERVICE_REGISTRY: readonly ServiceEntry[] = SERVICES satisfies readonly ServiceEntry[];

/** The services behind the gateway, in the order /api/health reports them. */
export type UpstreamServiceName = Exclude<ServiceName, 'gateway'>;
export const UPSTREAM_SERVICE_NAMES = SERVICE_REGISTRY.map((s) => s.name).filter((n): n is UpstreamServiceName => n !== 'gateway');

export function serviceEntry(name: ServiceName): ServiceEntry {
  const entry = SERVICE_REGISTRY.find((s) => s.name === name);
  if (!entry) throw new Error(`${name} is not in the service registry (packages/contracts/src/registry.js)`);
  return entry;
}

/** A service's default port, from the registry. */
export function servicePort(name: ServiceName): number {
  return serviceEntry(name).port;
}

/** The setting that holds a service's address, e.g. FRAME_EXTRACTION_URL. */
export function serviceUrlSetting(name: ServiceName): string {
  return `${name.toUpperCase().replace(/-/g, '_')}_URL`;
}
