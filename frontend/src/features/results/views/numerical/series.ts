/* The series of the selected blocks: built in @frametext/text-analysis (numerical-series.ts), shared with the server's export. */
export { inScreenOrder, pointsOf, seriesOf, type BlockSeries } from '@frametext/text-analysis';
