// Where one upload's CPU goes, process by process (`npm run bench -- cpu [charger|telemetry]`): the product on a stack
// of its own reads a 60-second generated video at one frame a second, once to warm up, then `runs` times measured. Each process's CPU is
// read from /proc before and after (utime + stime; processes told apart by pid and start time) and put under the
// service it descends from, a service's main thread apart from its other threads; the Tesseract processes stay up,
// so they count by their own figures. Linux only.
import { readdirSync, readFileSync } from 'node:fs';
import { makeChargerVideo, makeTelemetryVideo } from '../packages/sample-media/dist/index.js';

export const CPU_MEDIA = { charger: makeChargerVideo, telemetry: makeTelemetryVideo };
import { runThroughPipeline, withBenchStack } from './pipeline.mjs';

const TICKS_PER_SECOND = 100;

/** Every process's CPU seconds so far (its own, and its waited-for children's), by pid and start time. */
function processes() {
  const all = new Map();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // Ended meanwhile.
    }
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    all.set(`${pid}:${f[19]}`, { pid: Number(pid), ppid: Number(f[1]), name, own: (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND, children: (Number(f[13]) + Number(f[14])) / TICKS_PER_SECOND, mainThread: name === 'node' ? threadSeconds(pid) : undefined });
  }
  return all;
}

/** CPU seconds of a process's main thread (the task whose id is the process's). */
function threadSeconds(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS_PER_SECOND;
  } catch {
    return undefined;
  }
}

/** Share of the machine's time spent busy between two readings of /proc/stat. */
function busyShare(from, to) {
  return 1 - (to.idle - from.idle) / (to.total - from.total);
}
function machineTimes() {
  const t = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  return { idle: t[3] + t[4], total: t.reduce((a, b) => a + b, 0) };
}

export function benchCpu({ runs = 2, media = 'charger' } = {}) {
  return withBenchStack('cpu', {}, async ({ token, dir, running }) => {
    const video = await CPU_MEDIA[media]({ dir, seconds: 60 });
    await runThroughPipeline(token, video, 1);
    const rows = [];
    for (let run = 0; run < runs; run++) {
      const before = processes();
      const machineBefore = machineTimes();
      const upload = await runThroughPipeline(token, video, 1);
      const after = processes();
      const services = new Map([...running.children].map(([name, child]) => [child.pid, name]));
      const parents = new Map([...before.values(), ...after.values()].map((p) => [p.pid, p.ppid]));
      const serviceOf = (pid) => {
        for (let p = pid; p > 1; p = parents.get(p) ?? 0) if (services.has(p)) return services.get(p);
        return null;
      };
      const cpu = {};
      const add = (name, seconds) => {
        if (seconds > 0.005) cpu[name] = (cpu[name] ?? 0) + seconds;
      };
      for (const [key, p] of after) {
        const was = before.get(key);
        // A service's own threads apart: its main thread, and the rest (V8's garbage collector helpers, libuv's pool).
        if (services.has(p.pid) && p.mainThread !== undefined) {
          add(`${services.get(p.pid)}: main thread`, p.mainThread - (was?.mainThread ?? 0));
          add(`${services.get(p.pid)}: other threads`, p.own - p.mainThread - ((was?.own ?? 0) - (was?.mainThread ?? 0)));
          add(`${services.get(p.pid)}: children that ended`, p.children - (was?.children ?? 0));
          continue;
        }
        const service = serviceOf(p.pid);
        const name = p.pid === process.pid ? 'this bench (its status polls)' : service === null ? p.name : services.get(p.pid) === service ? service : `${service}: ${p.name}`;
        add(name, p.own - (was?.own ?? 0));
        // Processes it started and waited for in the meantime (ffmpeg for frame extraction).
        add(`${name}: children that ended`, p.children - (was?.children ?? 0));
      }
      rows.push({ seconds: upload.stages.endToEndMs / 1000, frames: upload.framesTotal, busy: busyShare(machineBefore, machineTimes()), cpu });
    }
    return { media, rows };
  });
}

export function printCpu({ media, rows }) {
  console.log(`\nCPU of one upload (the 60-second 720p ${media} video at 1 s), by process, from /proc`);
  rows.forEach((r, i) => {
    const total = Object.values(r.cpu).reduce((a, b) => a + b, 0);
    console.log(`\n  run ${i + 1}: ${r.frames} frames in ${r.seconds.toFixed(2)} s end to end, ${total.toFixed(2)} s of CPU in all, machine busy ${(r.busy * 100).toFixed(0)} % of the time`);
    for (const [name, seconds] of Object.entries(r.cpu).sort((a, b) => b[1] - a[1])) {
      if (seconds >= 0.02) console.log(`    ${seconds.toFixed(2).padStart(6)} s  ${(seconds / r.frames * 1000).toFixed(1).padStart(5)} ms/frame  ${name}`);
    }
  });
}
