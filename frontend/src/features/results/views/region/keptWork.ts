/* The Region view's kept work (issue 16): in @frametext/text-analysis (region-reading.ts), shared with the server's export. */
export { regionWork, restoreRegionWork, type RestoredRegion } from '@frametext/text-analysis';
