// Writes the JSON export's JSON Schema into docs/exports.md, between its schema markers, from the built contracts
// (run `pnpm --filter @frametext/contracts run build` first). The contracts test checks the two stay alike.
import { readFileSync, writeFileSync } from 'node:fs';
import { numericalExportJsonSchema } from '../dist/index.js';

const doc = new URL('../../../docs/exports.md', import.meta.url);
const text = readFileSync(doc, 'utf8');
const block = `<!-- schema:start -->\n\`\`\`json\n${JSON.stringify(numericalExportJsonSchema(), null, 2)}\n\`\`\`\n<!-- schema:end -->`;
writeFileSync(doc, text.replace(/<!-- schema:start -->[\s\S]*<!-- schema:end -->/, block));
