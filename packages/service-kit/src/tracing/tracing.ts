import { randomBytes } from 'node:crypto';
import { context, defaultTextMapGetter, defaultTextMapSetter, isSpanContextValid, ROOT_CONTEXT, trace, type Context, type Tracer } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { AlwaysOffSampler, BasicTracerProvider, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, type Sampler } from '@opentelemetry/sdk-trace-base';

/** The W3C Trace Context headers (`traceparent`, `tracestate`), on HTTP requests and bus messages alike. */
export type TraceCarrier = Record<string, string>;

export const TRACE_HEADERS = ['traceparent', 'tracestate'] as const;

export interface TracingSettings {
  /** OTLP/HTTP collector base address (`http://collector:4318`); spans go to its `/v1/traces`. None: nothing is exported. */
  endpoint?: string;
  /** Share of new traces recorded when exporting (0 to 1). */
  sampleRatio: number;
  /**
   * Whether a caller's "sampled" flag decides for us. Services trust their callers (the gateway and each other); the
   * gateway does not trust the public, so a browser keeps its trace id but cannot make every request recorded.
   */
  trustCallerSampling: boolean;
}

export interface Tracing {
  tracer: Tracer;
  /** Whether spans are recorded and sent anywhere. */
  exporting: boolean;
  /** Sends what is buffered and stops. */
  shutdown(): Promise<void>;
}

const propagator = new W3CTraceContextPropagator();
let contextManagerReady = false;

/** Spans follow async work (awaits, callbacks) through one process-wide context manager; set once. */
function ensureContextManager(): void {
  if (contextManagerReady) return;
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  contextManagerReady = true;
}

function samplerFor(settings: TracingSettings): Sampler {
  if (!settings.endpoint) return new AlwaysOffSampler();
  const ratio = new TraceIdRatioBasedSampler(settings.sampleRatio);
  return settings.trustCallerSampling
    ? new ParentBasedSampler({ root: ratio })
    : new ParentBasedSampler({ root: ratio, remoteParentSampled: ratio, remoteParentNotSampled: ratio });
}

/**
 * A service's tracer. Every request and message gets a trace id and span id (they travel on and appear in logs)
 * whether or not anything is exported; without an endpoint no span is recorded, so tracing costs two random ids.
 * With one, sampled spans are batched to the collector over OTLP/HTTP.
 */
export function startTracing(service: string, settings: TracingSettings): Tracing {
  ensureContextManager();
  const exporting = Boolean(settings.endpoint);
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': service }),
    sampler: samplerFor(settings),
    spanProcessors: settings.endpoint ? [new BatchSpanProcessor(new OTLPTraceExporter({ url: new URL('v1/traces', withSlash(settings.endpoint)).toString() }))] : [],
  });
  return { tracer: provider.getTracer(service), exporting, shutdown: () => provider.shutdown() };
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}

/** The trace context a carrier (HTTP request headers, AMQP message headers) brings; the root when it brings none. */
export function contextFrom(carrier: Record<string, unknown> | undefined): Context {
  if (!carrier) return ROOT_CONTEXT;
  const headers: Record<string, string> = {};
  for (const name of TRACE_HEADERS) {
    const value = carrier[name];
    const text = Buffer.isBuffer(value) ? value.toString('utf8') : value;
    if (typeof text === 'string') headers[name] = text;
  }
  return propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
}

/** The headers that carry the current span's context to the next hop (empty outside any span). */
export function traceHeaders(ctx: Context = context.active()): TraceCarrier {
  const carrier: TraceCarrier = {};
  propagator.inject(ctx, carrier, defaultTextMapSetter);
  return carrier;
}

/**
 * Headers for a call made on a timer rather than for anyone's request (polling a feed): a trace of its own, marked
 * not sampled, so the service called records nothing for it instead of a new trace every few seconds.
 */
export function unsampledTraceHeaders(): TraceCarrier {
  return { traceparent: `00-${randomBytes(16).toString('hex')}-${randomBytes(8).toString('hex')}-00` };
}

/** The current trace and span ids, for log lines; undefined outside any span. */
export function currentTraceIds(): { traceId: string; spanId: string } | undefined {
  const span = trace.getSpan(context.active());
  const ids = span?.spanContext();
  return ids && isSpanContextValid(ids) ? { traceId: ids.traceId, spanId: ids.spanId } : undefined;
}
