/* Values typed over the OCR's readings: in @frametext/text-analysis (numerical-corrections.ts), shared with the server's export. */
export { correctionsOf, correctionsReducer, noCorrections, withCorrections, type CorrectionAction, type CorrectionsState } from '@frametext/text-analysis';
