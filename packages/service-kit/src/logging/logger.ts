import pino, { type Logger } from 'pino';
import { currentTraceIds } from '../tracing/tracing.js';
import { currentContext } from './context.js';

export type { Logger };

/**
 * pino JSON logs; every line written inside a request or message carries its correlation id and its trace and span
 * ids (to find the trace of a log line and the log lines of a trace). Lines go to
 * stdout unless another destination is given (tests read what was logged).
 */
export function createLogger(service: string, level = 'info', destination?: pino.DestinationStream): Logger {
  const options: pino.LoggerOptions = {
    name: service,
    level,
    base: { service },
    timestamp: pino.stdTimeFunctions.isoTime,
    mixin() {
      const ctx = currentContext();
      return { ...(ctx ? { correlationId: ctx.correlationId } : {}), ...currentTraceIds() };
    },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'refreshToken', '*.refreshToken', 'req.headers.authorization'], censor: '[redacted]' },
  };
  return destination ? pino(options, destination) : pino(options);
}
