import { runOcrBench } from './ocr-bench.js';

/**
 * `node dist/bench/run.js [frames] [concurrency]`: runs the OCR benchmark alone and prints its figures as JSON;
 * exits 1 when a target is missed (accuracy >= 0.95 where bare < 0.5, throughput >= 1.2x bare on every core).
 */
const count = Number(process.argv[2] ?? 60);
const concurrency = process.argv[3] ? Number(process.argv[3]) : undefined;
const figures = await runOcrBench({ count, concurrency, log: (line) => process.stderr.write(`${line}\n`) });
process.stdout.write(`${JSON.stringify(figures, null, 2)}\n`);
const ok = figures.pipeline.accuracy >= 0.95 && figures.bare.accuracy < 0.5 && figures.throughputRatio >= 1.2;
process.stderr.write(ok ? 'targets met\n' : 'TARGETS MISSED\n');
process.exitCode = ok ? 0 : 1;
