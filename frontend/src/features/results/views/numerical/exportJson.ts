/* The JSON export: in @frametext/text-analysis (numerical-json.ts), shared with the server's export. */
export { numericalExport, numericalJson, resultsJsonFileName } from '@frametext/text-analysis';
