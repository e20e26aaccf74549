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
  type Engine,
  type PublicConfig,
} from '@frametext/contracts';
import type { BillingConfig } from '../config.js';

export const CLOUD_UNAVAILABLE_REASON = 'Cloud AI is not configured on this server; use Basic.';

function unavailableReason(engine: Engine, config: BillingConfig): string | null {
  if (engine === 'cloud' && !config.CLOUD_OCR_ENABLED) return CLOUD_UNAVAILABLE_REASON;
  return null;
}

/** The settings every page reads before sign-in: one free-credit figure, engines and their rates, limits, packs. */
export function publicConfig(config: BillingConfig): PublicConfig {
  return {
    freeCredits: config.FREE_CREDITS,
    engines: ENGINES.map((engine) => {
      const reason = unavailableReason(engine, config);
      return {
        engine,
        available: reason === null,
        reason,
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
