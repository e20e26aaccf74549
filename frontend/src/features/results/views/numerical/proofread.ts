/* The series as proofread: in @frametext/text-analysis (numerical-corrections.ts), shared with the server's export. */
export { nextUnsure, proofSeries, unsureCells, type CellRef, type ProofSeries } from '@frametext/text-analysis';
