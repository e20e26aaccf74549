/* The Numerical view's "Find the numbers": in @frametext/text-analysis (numerical-series.ts), shared with the server's export. */
export { findNewSeries, type FindOutcome } from '@frametext/text-analysis';
