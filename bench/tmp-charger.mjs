import { makeChargerVideo, textsAt } from '@frametext/sample-media';
import { withBenchStack, runThroughPipeline } from './pipeline.mjs';
const norm = (s) => s.replace(/\s+/g, ' ').trim();
await withBenchStack('dbg', {}, async ({ token, dir }) => {
  const video = await makeChargerVideo({ dir, seconds: 60 });
  const ours = await runThroughPipeline(token, video, 1);
  const frames = ours.details.results.ocrResults;
  let miss = 0;
  frames.forEach((r, i) => {
    const text = norm((r.detections ?? []).map((d) => d.text).join('\n'));
    for (const want of textsAt(video, (r.t ?? i) + 0.001)) if (!text.includes(norm(want))) { miss++; console.log(i, r.t, want, '|', text); }
  });
  console.log('missed', miss, 'stages', ours.stages);
});
process.exit(0);
