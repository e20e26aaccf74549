// GET /api/uploads/:id/export through the real gateway and services: a script with a read token gets the
// file a results view's export button saves (CSV, JSON, SRT...), byte for byte what the app's builders give on the
// same results and the same kept work, and a clear 4xx when it asks for what cannot be given.
import { readFile } from 'node:fs/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { annotateVideoResponseSchema, numericalExportSchema, type UploadDetailsResponse } from '@frametext/contracts';
import { CAPTIONS_CORPUS, chargerValues, makeCaptionsVideo, makeChargerVideo } from '@frametext/sample-media';
import {
  keptNumericalSeries,
  keptRegionReading,
  numericalCsv,
  numericalTxt,
  numericalWork,
  regionCsv,
  sameCaption,
  sourceFromDetails,
  toSrt,
  DEFAULT_TRACKING_SETTINGS,
} from '../../packages/text-analysis/src/index.js';
import { useStack } from '../support/use-stack.js';

const dir = mkdtempSync(path.join(tmpdir(), 'exports-media-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const stack = useStack();

interface Download {
  status: number;
  contentType: string | null;
  disposition: string | null;
  /** The body as sent: a byte-order mark stays in it. */
  text: string;
}

async function download(uploadID: string, query: string, token?: string): Promise<Download> {
  const res = await fetch(`${stack.base}/api/uploads/${uploadID}/export?${query}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  const text = new TextDecoder('utf-8', { ignoreBOM: true }).decode(await res.arrayBuffer());
  return { status: res.status, contentType: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), text };
}

const errorOf = (d: Download) => JSON.parse(d.text) as { error: { code: string; message: string } };

/** A signed-up person with a personal token of scope read, made as the Account page makes it. */
async function personWithReadToken() {
  const person = await stack.signUp();
  const res = await stack.api('POST', '/auth/api-tokens', { name: 'exports', scope: 'read', password: person.password }, person.token);
  expect(res.status).toBe(201);
  return { ...person, readToken: res.body.token as string };
}

async function upload(token: string, file: { path: string; durationSeconds: number }, body: Record<string, unknown>): Promise<string> {
  const res = await stack.api('POST', '/getUploadURL', { kind: 'video', isVideo: true, mimeType: 'video/mp4', ocrType: 'server', duration: file.durationSeconds, ...body }, token);
  expect(res.status).toBe(200);
  expect((await fetch(res.body.urls[0], { method: 'PUT', body: await readFile(file.path), headers: { 'content-type': 'video/mp4' } })).status).toBe(200);
  const uploadID = res.body.uploadID as string;
  expect((await stack.api('POST', '/uploadComplete', { uploadID }, token)).status).toBe(200);
  return uploadID;
}


async function detailsOf(token: string, uploadID: string): Promise<UploadDetailsResponse> {
  const res = await stack.api('GET', `/getUploadDetails/${uploadID}`, undefined, token);
  expect(res.status).toBe(200);
  return res.body as UploadDetailsResponse;
}

const BOM = '\uFEFF';
const csvRows = (csv: string) =>
  csv
    .replace(BOM, '')
    .trimEnd()
    .split('\r\n')
    .map((line) => line.split(',').map((cell) => cell.replace(/^"|"$/g, '')));

describe('exports for scripts', () => {
  it('gives a numerical video’s CSV and JSON: the series Find the numbers finds, then the person’s kept series and corrections', async () => {
    const owner = await personWithReadToken();
    const SECONDS = 6;
    const video = await makeChargerVideo({ dir, seconds: SECONDS, name: 'charger.mp4' });
    const uploadID = await upload(owner.token, video, { fileName: 'charger.mp4', uploadName: 'Charger: run 1', targetFrameRate: 1, mediaContent: 'numerical' });

    // Until it is processed: 409 saying so, with its status (404 only for the moment before results learns of it).
    let early = await download(uploadID, 'format=csv', owner.readToken);
    for (let i = 0; early.status === 404 && i < 50; i++) {
      await new Promise((r) => setTimeout(r, 100));
      early = await download(uploadID, 'format=csv', owner.readToken);
    }
    expect(early.status).toBe(409);
    expect(errorOf(early).error.message).toMatch(/still processing \(status: (uploaded|processing)\)/);

    expect((await stack.untilUpload(owner.token, uploadID)).status).toBe('processed');

    const csv = await download(uploadID, 'format=csv', owner.readToken);
    expect(csv.status).toBe(200);
    expect(csv.contentType).toBe('text/csv; charset=utf-8');
    expect(csv.disposition).toBe('attachment; filename="Charger- run 1-results.csv"');
    expect(csv.text.startsWith(BOM)).toBe(true);
    const [header, ...rows] = csvRows(csv.text);
    expect(header!.slice(0, 2)).toEqual(['Frame', 'Time']);
    expect(rows).toHaveLength(SECONDS);
    // The charger's three readings, named after their labels, each frame's value as on screen.
    const column = (name: RegExp) => header!.findIndex((h) => name.test(h));
    const battery = column(/battery/i);
    const power = column(/power/i);
    expect(battery, header!.join(',')).toBeGreaterThan(1);
    expect(power, header!.join(',')).toBeGreaterThan(1);
    rows.forEach((row, s) => {
      expect(row[1]).toBe(`0:${String(s).padStart(2, '0')}`);
      expect(parseFloat(row[battery]!), `battery at ${s} s`).toBe(parseFloat(chargerValues(s).battery));
      expect(parseFloat(row[power]!), `power at ${s} s`).toBe(parseFloat(chargerValues(s).power));
    });

    // Exactly what the app's builders give on the same results with no kept work.
    const details = await detailsOf(owner.token, uploadID);
    const source = sourceFromDetails(uploadID, details);
    const detections = source.frames.map((f) => f.detections);
    const found = keptNumericalSeries(detections, null);
    expect(csv.text).toBe(
      numericalCsv(
        source.frames.map((f) => ({ t: f.t })),
        found.map((p) => p.series),
      ),
    );

    const json = await download(uploadID, 'format=json&view=numerical', owner.readToken);
    expect(json.status).toBe(200);
    expect(json.contentType).toBe('application/json');
    expect(json.disposition).toBe('attachment; filename="Charger- run 1-results.json"');
    const exported = numericalExportSchema.parse(JSON.parse(json.text));
    expect(exported.upload).toEqual({ id: uploadID, name: 'Charger: run 1', kind: 'Video' });
    expect(exported.frames).toHaveLength(SECONDS);
    expect(exported.series.map((s) => s.name)).toEqual(header!.slice(2));
    expect(exported.series.map((s) => s.id)).toEqual(found.map((p) => p.id));

    // The person keeps one series renamed, with a value corrected: the export follows their work.
    const kept = found.find((p) => /battery/i.test(p.series.name))!;
    const document = numericalWork([{ ...kept.row.block, settings: { ...kept.row.block.settings, seriesName: 'Charge' } }], DEFAULT_TRACKING_SETTINGS, { [String(kept.id)]: { '2': '99' } });
    expect((await stack.api('PUT', `/uploads/${uploadID}/work/numerical`, { revision: 0, document }, owner.token)).status).toBe(200);
    const mine = await download(uploadID, 'format=csv', owner.readToken);
    const [myHeader, ...myRows] = csvRows(mine.text);
    expect(myHeader).toEqual(['Frame', 'Time', 'Charge']);
    expect(myRows.map((r) => r[2])).toEqual(rows.map((r, s) => (s === 2 ? '99' : r[battery])));
    expect(mine.text).toBe(
      numericalCsv(
        source.frames.map((f) => ({ t: f.t })),
        keptNumericalSeries(detections, JSON.parse(JSON.stringify(document))).map((p) => p.series),
      ),
    );

    const txt = await download(uploadID, 'format=txt', owner.readToken);
    expect(txt.status).toBe(200);
    expect(txt.contentType).toBe('text/plain; charset=utf-8');
    expect(txt.disposition).toBe('attachment; filename="Charger- run 1-results.txt"');
    expect(txt.text).toContain('Charge: 99');
    expect(txt.text).toBe(
      numericalTxt(
        source.frames.map((f) => ({ t: f.t })),
        keptNumericalSeries(detections, JSON.parse(JSON.stringify(document))).map((p) => p.series),
      ),
    );

    // Any upload, whatever its mode, also exports its text in Google Video Intelligence's shape (docs/video-intelligence.md):
    // the title on screen throughout is one text with one segment over the whole video, each battery reading a text
    // of its own for its second.
    const gvi = await download(uploadID, 'format=gvi&view=region', owner.readToken);
    expect(gvi.status).toBe(200);
    expect(gvi.contentType).toBe('application/json');
    expect(gvi.disposition).toBe('attachment; filename="Charger- run 1-video-intelligence.json"');
    const annotations = annotateVideoResponseSchema.parse(JSON.parse(gvi.text)).annotationResults[0]!.textAnnotations;
    const title = annotations.find((a) => a.text === 'DC FAST CHARGER');
    expect(title?.segments.map((x) => x.segment)).toEqual([{ startTimeOffset: '0s', endTimeOffset: `${SECONDS}s` }]);
    for (const s of [1, 4]) {
      const reading = annotations.find((a) => a.text === chargerValues(s).battery);
      expect(reading?.segments.map((x) => x.segment), chargerValues(s).battery).toEqual([{ startTimeOffset: `${s}s`, endTimeOffset: `${s + 1}s` }]);
    }

    // What cannot be given: a clear 400, 404 or 403.
    const srt = await download(uploadID, 'format=srt', owner.readToken);
    expect(srt.status).toBe(400);
    expect(errorOf(srt).error).toMatchObject({ code: 'export/format-not-offered', message: 'The numerical view does not export srt; it exports csv, txt, json.' });
    const pdf = await download(uploadID, 'format=pdf', owner.readToken);
    expect(pdf.status).toBe(400);
    expect(errorOf(pdf).error.message).toBe('format: format must be one of csv, txt, srt, vtt, json, gvi');
    expect(errorOf(await download(uploadID, '', owner.readToken)).error.message).toBe('format: format must be one of csv, txt, srt, vtt, json, gvi');
    const chart = await download(uploadID, 'format=csv&view=chart', owner.readToken);
    expect(chart.status).toBe(400);
    expect(errorOf(chart).error.message).toBe('view: view must be one of presentation, numerical, region, scroll');
    const stranger = await personWithReadToken();
    const theirs = await download(uploadID, 'format=csv', stranger.readToken);
    expect(theirs.status).toBe(404);
    expect(errorOf(theirs).error.code).toBe('uploads/not-found');
    // Without a token: the gateway's 403, as for every signed-in route.
    expect((await download(uploadID, 'format=csv')).status).toBe(403);
  }, 400_000);

  it('gives a captioned video’s SRT and CSV from the Region view as it opens, and 410 once the upload is deleted', async () => {
    const owner = await personWithReadToken();
    const captions = CAPTIONS_CORPUS.slice(0, 4);
    const video = await makeCaptionsVideo({ dir, captions: [...captions], outline: 2, size: 40, name: 'captions.mp4' });
    const uploadID = await upload(owner.token, video, { fileName: 'captions.mp4', uploadName: 'Talk: part 1/2', targetFrameRate: 2, mediaContent: 'captions' });
    expect((await stack.untilUpload(owner.token, uploadID)).status).toBe('processed');

    const srt = await download(uploadID, 'format=srt', owner.readToken);
    expect(srt.status).toBe(200);
    expect(srt.contentType).toBe('application/x-subrip');
    expect(srt.disposition).toBe('attachment; filename="Talk- part 1-2-green.srt"');
    const cues = srt.text.trim().split(/\n\n/);
    expect(cues).toHaveLength(captions.length);
    cues.forEach((cue, i) => {
      const [number, timing, ...lines] = cue.split('\n');
      expect(number).toBe(String(i + 1));
      expect(timing).toMatch(/^\d\d:\d\d:\d\d,\d{3} --> \d\d:\d\d:\d\d,\d{3}$/);
      expect(sameCaption(lines.join(' '), captions[i]!.text.replace(/\n/g, ' ')), `${lines.join(' ')} for ${captions[i]!.text}`).toBe(true);
    });

    // The app's builders on the same frames, placed on the video's pictures' size.
    const source = sourceFromDetails(uploadID, await detailsOf(owner.token, uploadID));
    const reading = keptRegionReading(source.frames, () => ({ width: video.width, height: video.height }), null);
    expect(srt.text).toBe(toSrt(reading.cues[0]!));

    const vtt = await download(uploadID, 'format=vtt&view=region', owner.readToken);
    expect(vtt.contentType).toBe('text/vtt');
    expect(vtt.text.startsWith('WEBVTT')).toBe(true);

    const csv = await download(uploadID, 'format=csv', owner.readToken);
    expect(csv.status).toBe(200);
    expect(csv.disposition).toBe('attachment; filename="Talk- part 1-2-captions.csv"');
    expect(csv.text.startsWith(BOM)).toBe(true);
    expect(csv.text).toBe(regionCsv(['Green'], reading.readings));
    expect(csvRows(csv.text)[0]).toEqual(['Frame', 'Time', 'Green']);

    const json = await download(uploadID, 'format=json', owner.readToken);
    expect(json.status).toBe(400);
    expect(errorOf(json).error.message).toBe('The region view does not export json; it exports csv, txt, srt, vtt.');

    expect((await stack.api('POST', '/deleteUploads', { uploads: [uploadID], deleteUploads: true }, owner.token)).status).toBe(200);
    const gone = await download(uploadID, 'format=srt', owner.readToken);
    expect(gone.status).toBe(410);
    expect(errorOf(gone).error.code).toBe('uploads/deleted');
  }, 400_000);
});
