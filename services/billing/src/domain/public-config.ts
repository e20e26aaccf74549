import {
  CREDIT_PACKS,
  CREDIT_RATES,
  DEFAULT_FRAME_INTERVAL,
  DEFAULT_LOCAL_SCAN_INTERVAL,
  ENGINES,
  FRAME_INTERVALS,
  LOCAL_MAX_FRAMES,
  LOCAL_SCAN_INTERVALS,
  MAX_FRAMES,
  RETENTION_DAYS,
  type PublicConfig,
} from '@frametext/contracts';
import type { EngineStatus } from '@frametext/service-kit';
import { paymentsMode, type BillingConfig } from '../config.js';

/**
 * The settings every page reads before sign-in: one free-credit figure, how packs are sold, engines and their
 * rates, limits, packs.
 * `engines` says which engines can be chosen now and why not (engineAvailability, from the running workers).
 */
export function publicConfig(config: BillingConfig, engines: readonly EngineStatus[]): PublicConfig {
  return {
    freeCredits: config.FREE_CREDITS,
    purchases: paymentsMode(config),
    engines: ENGINES.map((engine) => {
      const status = engines.find((e) => e.engine === engine);
      return {
        engine,
        available: status?.available ?? false,
        reason: status ? status.reason : 'Not offered on this server.',
        creditsPerFrame: CREDIT_RATES[engine],
        framesPerCredit: Math.round(1 / CREDIT_RATES[engine]),
      };
    }),
    maxFrames: MAX_FRAMES,
    localMaxFrames: LOCAL_MAX_FRAMES,
    frameIntervals: [...FRAME_INTERVALS],
    defaultFrameInterval: DEFAULT_FRAME_INTERVAL,
    localScanIntervals: [...LOCAL_SCAN_INTERVALS],
    defaultLocalScanInterval: DEFAULT_LOCAL_SCAN_INTERVAL,
    creditPacks: CREDIT_PACKS.map((p) => ({ credits: p.credits, priceCents: p.priceCents })),
    retentionDays: RETENTION_DAYS,
  };
}
