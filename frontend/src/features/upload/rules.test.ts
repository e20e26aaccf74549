import { describe, expect, it } from 'vitest';
import { FRAME_INTERVALS } from '@frametext/contracts/rules';
import { AUTO_LANGUAGE, LANGUAGES, ORIGINAL_LANGUAGES, SAME_LANGUAGE, TARGET_LANGUAGES, languagesClash } from './languages';
import { MESSAGES, classifyFiles, intervalLabel, photoSpanSeconds, pickEngine, quote, shortfallMessage, uploadBlocker, videoFrames, videoLinkId } from './rules';

const f = (name: string, type = '') => ({ name, type });

describe('file type rules', () => {
  it('takes one .mp4 or .mov video, whatever the case of its extension', () => {
    expect(classifyFiles([f('clip.MP4')])).toEqual({ ok: true, kind: 'video', mimeType: 'video/mp4' });
    expect(classifyFiles([f('clip.mov')])).toEqual({ ok: true, kind: 'video', mimeType: 'video/quicktime' });
    expect(classifyFiles([f('Clip.MoV', '')])).toEqual({ ok: true, kind: 'video', mimeType: 'video/quicktime' });
  });

  it('refuses two videos, a video among photos, and a video in another format', () => {
    expect(classifyFiles([f('a.mp4'), f('b.mp4')])).toEqual({ ok: false, message: 'Please upload one .mov or .mp4 at a time.' });
    expect(classifyFiles([f('a.png'), f('b.mov')])).toEqual({ ok: false, message: MESSAGES.oneVideo });
    expect(classifyFiles([f('a.avi', 'video/x-msvideo')])).toEqual({ ok: false, message: MESSAGES.oneVideo });
  });

  it('takes photos of one type; jpg and jpeg are the same type', () => {
    expect(classifyFiles([f('1.png'), f('2.PNG')])).toEqual({ ok: true, kind: 'photos', mimeType: 'image/png' });
    expect(classifyFiles([f('1.jpg'), f('2.JPEG'), f('3.Jpg')])).toEqual({ ok: true, kind: 'photos', mimeType: 'image/jpeg' });
  });

  it('refuses photos of mixed types', () => {
    expect(classifyFiles([f('1.png'), f('2.jpg')])).toEqual({ ok: false, message: 'Please ensure multiple uploads are the same file type.' });
  });

  it('refuses anything that is not a png or jpeg photo', () => {
    expect(classifyFiles([f('1.png'), f('notes.txt')])).toEqual({ ok: false, message: 'Ensure multiple uploads are all photos and either .png or .jpeg.' });
    expect(classifyFiles([f('scan.gif', 'image/gif')])).toEqual({ ok: false, message: MESSAGES.photosOnly });
    expect(classifyFiles([f('noextension')])).toEqual({ ok: false, message: MESSAGES.photosOnly });
  });

  it('has nothing to say about an empty selection', () => {
    expect(classifyFiles([])).toBeNull();
  });
});

describe('before uploading', () => {
  it('asks for a name, blank or spaces alike', () => {
    expect(uploadBlocker({ uploadName: '', credits: 10 })).toBe('Please name your upload before uploading.');
    expect(uploadBlocker({ uploadName: '   ', credits: 10 })).toBe(MESSAGES.nameRequired);
  });

  it('refuses an empty balance, and lets a known positive or unknown balance through', () => {
    expect(uploadBlocker({ uploadName: 'Run 1', credits: 0 })).toBe('Not enough credits, purchase some more before uploading.');
    expect(uploadBlocker({ uploadName: 'Run 1', credits: 0.5 })).toBeNull();
    expect(uploadBlocker({ uploadName: 'Run 1', credits: null })).toBeNull();
  });
});

describe('frames and credits', () => {
  it('counts ceil(duration / interval) frames, at least one', () => {
    expect(videoFrames(600, 15)).toBe(40);
    expect(videoFrames(601, 15)).toBe(41);
    expect(videoFrames(0.2, 15)).toBe(1);
    expect(videoFrames(1.1, 0.1)).toBe(11);
  });

  it('prices frames at the engine rate, rounded up', () => {
    expect(quote({ frames: 40, engine: 'cloud', credits: 100 }).credits).toBe(40);
    expect(quote({ frames: 41, engine: 'server', credits: 100 }).credits).toBe(5);
    expect(quote({ frames: 1, engine: 'server', credits: 100 }).credits).toBe(1);
  });

  it('flags more than 360 frames, and not 360', () => {
    expect(quote({ frames: 360, engine: 'server', credits: 100 }).tooManyFrames).toBe(false);
    expect(quote({ frames: 361, engine: 'server', credits: 100 }).tooManyFrames).toBe(true);
    expect(MESSAGES.tooManyFrames).toBe("Whoa that's a lot of frames. We suggest reducing your framerate or splitting the upload media into multiple parts.");
  });

  it('says how short the balance is and how many frames it still covers', () => {
    expect(quote({ frames: 40, engine: 'cloud', credits: 25 }).shortfall).toEqual({ have: 25, need: 40, framesCovered: 25 });
    expect(quote({ frames: 300, engine: 'server', credits: 12 }).shortfall).toEqual({ have: 12, need: 30, framesCovered: 120 });
    expect(quote({ frames: 40, engine: 'cloud', credits: 40 }).shortfall).toBeNull();
    expect(quote({ frames: 40, engine: 'cloud', credits: null }).shortfall).toBeNull();
    expect(shortfallMessage(25, 40)).toBe('You have 25 credits but this operation requires 40.');
  });

  it('estimates a photo series by the span of its capture times', () => {
    expect(photoSpanSeconds([1_000_000, 1_090_000, 1_030_000])).toBe(90);
    expect(photoSpanSeconds([5])).toBe(0);
    expect(photoSpanSeconds([])).toBe(0);
  });
});

describe('frame interval labels', () => {
  it('offers the 20 choices of the spec', () => {
    expect(FRAME_INTERVALS).toEqual([0.1, 0.25, 0.5, 1, 3, 5, 10, 15, 30, 45, 60, 120, 180, 240, 300, 600, 900, 1800, 2700, 3600]);
  });

  it('says seconds under a minute and minutes from there on', () => {
    expect(intervalLabel(0.1)).toBe('Capture text every 0.1 seconds');
    expect(intervalLabel(1)).toBe('Capture text every 1 second');
    expect(intervalLabel(15)).toBe('Capture text every 15 seconds');
    expect(intervalLabel(45)).toBe('Capture text every 45 seconds');
    expect(intervalLabel(60)).toBe('Capture text every 1 minute');
    expect(intervalLabel(2700)).toBe('Capture text every 45 minutes');
    expect(intervalLabel(3600)).toBe('Capture text every 60 minutes');
  });
});

describe('video links', () => {
  it.each([
    ['https://www.youtube.com/watch?v=dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42', 'dQw4w9WgXcQ'],
    ['https://www.youtube.com/embed/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['https://youtu.be/dQw4w9WgXcQ', 'dQw4w9WgXcQ'],
    ['  https://youtu.be/a_b-C1d2E3f?t=3  ', 'a_b-C1d2E3f'],
  ])('accepts %s', (link, id) => {
    expect(videoLinkId(link)).toBe(id);
  });

  it.each(['', 'https://vimeo.com/123456789', 'https://youtu.be/short', 'https://www.youtube.com/watch?v=dQw4w9WgXcQX', 'https://www.youtube.com/channel/dQw4w9WgXcQ', 'dQw4w9WgXcQ'])(
    'ignores %j',
    (link) => {
      expect(videoLinkId(link)).toBeNull();
    },
  );
});

describe('languages', () => {
  it('lists about 100 languages with a label and a code, Traditional Chinese as zh-TW', () => {
    expect(LANGUAGES.length).toBeGreaterThanOrEqual(100);
    expect(LANGUAGES.every((l) => l.label && l.code)).toBe(true);
    expect(new Set(LANGUAGES.map((l) => l.code)).size).toBe(LANGUAGES.length);
    expect(LANGUAGES.find((l) => l.code === 'zh-TW')?.label).toBe('Chinese (Traditional)');
  });

  it('has Same and Auto without a code', () => {
    expect(SAME_LANGUAGE.code).toBeNull();
    expect(AUTO_LANGUAGE.code).toBeNull();
    expect(ORIGINAL_LANGUAGES[0]).toBe(AUTO_LANGUAGE);
    expect(TARGET_LANGUAGES[0]).toBe(SAME_LANGUAGE);
  });

  it('clashes only on two equal real languages', () => {
    expect(languagesClash('fr', 'fr')).toBe(true);
    expect(languagesClash('fr', 'en')).toBe(false);
    expect(languagesClash(null, null)).toBe(false);
  });
});

describe('engine choice', () => {
  const engines = (cloud: boolean, server = true) => [
    { engine: 'cloud', available: cloud },
    { engine: 'server', available: server },
    { engine: 'local', available: true },
  ];

  it('starts on Cloud AI when it is available, on Basic when it is not, and on nothing while neither is', () => {
    expect(pickEngine(engines(true), null)).toBe('cloud');
    expect(pickEngine(engines(false), null)).toBe('server');
    expect(pickEngine(engines(false, false), null)).toBeNull();
    expect(pickEngine([], null)).toBeNull();
  });

  it('keeps the person’s choice while it stays available, and falls back when it goes away', () => {
    expect(pickEngine(engines(true), 'server')).toBe('server');
    expect(pickEngine(engines(false), 'cloud')).toBe('server');
  });
});
