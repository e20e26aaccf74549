import { describe, expect, it } from 'vitest';
import {
  deleteUploadsRequestSchema,
  getUploadUrlRequestSchema,
  isLinkUploadRequest,
  linkUploadRequestSchema,
  logLocalUploadRequestSchema,
  requestedFrames,
  youtubeVideoId,
  type GetUploadUrlRequest,
} from './uploads.js';
import { VIDEO_LINK_FORMS_MESSAGE, youtubeWatchUrl } from './rules.js';

const video: GetUploadUrlRequest = {
  kind: 'video',
  isVideo: true,
  mimeType: 'video/mp4',
  uploadName: 'Launch telemetry',
  duration: 600,
  targetFrameRate: 1 / 15,
  ocrType: 'cloud',
  mediaContent: 'numerical',
};

function issues(body: unknown): string[] {
  const result = getUploadUrlRequestSchema.safeParse(body);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
}

describe('POST /getUploadURL body', () => {
  it('accepts a source video and fills the defaults', () => {
    const req = getUploadUrlRequestSchema.parse({ ...video, extraFieldFromAnOlderClient: 1 });
    expect(req).toMatchObject({ kind: 'video', timestamps: null, sortPreference: null, slideDetection: false, originalLanguage: null, youtubeLink: null });
    expect(req).not.toHaveProperty('extraFieldFromAnOlderClient');
    expect(requestedFrames(req)).toBe(40);
  });

  it('derives the shape from the spec fields when kind is absent', () => {
    const { kind: _k, ...spec } = video;
    expect(getUploadUrlRequestSchema.parse(spec).kind).toBe('video');
    const frames = getUploadUrlRequestSchema.parse({ ...spec, mimeType: 'image/jpeg', timestamps: ['0000000000', '0000015000'] });
    expect(frames.kind).toBe('frames');
    expect(frames.timestamps).toEqual([0, 15000]);
    const photos = getUploadUrlRequestSchema.parse({
      isVideo: false,
      uploadName: 'Receipts',
      mimeType: 'image/png',
      files: [{ name: 'a.PNG', type: 'image/png', lastModified: 1700000000000 }],
    });
    expect(photos.kind).toBe('photos');
    expect(photos.timestamps).toEqual([1700000000000]);
    expect(photos.sortPreference).toBe('name');
  });

  it("takes the spec's photo request, which names no files: one per capture time, in that order", () => {
    const spec = { isVideo: false, uploadName: 'Meter readings', mimeType: 'image/jpeg', timestamps: [1700000000000, 1700000060000, 1700000120000], sortPreference: 'timestamp', ocrType: 'server', mediaContent: 'numerical' };
    const req = getUploadUrlRequestSchema.parse(spec);
    expect(req.kind).toBe('photos');
    expect(requestedFrames(req)).toBe(3);
    expect(req.kind === 'photos' && req.files.map((f) => [f.name, f.type, f.lastModified])).toEqual([
      ['photo-001.jpg', 'image/jpeg', 1700000000000],
      ['photo-002.jpg', 'image/jpeg', 1700000060000],
      ['photo-003.jpg', 'image/jpeg', 1700000120000],
    ]);
    expect(req.timestamps).toEqual(spec.timestamps);
    // With neither files nor timestamps there is nothing to name: the answer says what to send.
    const { timestamps: _t, ...nothing } = spec;
    expect(issues(nothing)).toEqual(["files: files must list each photo with its name, type and lastModified (or send timestamps: each photo's capture time)"]);
    expect(issues({ ...spec, timestamps: ['yesterday'] })).toEqual(['files.0.lastModified: each file needs lastModified, in ms since the epoch', 'timestamps.0: each photo timestamp must be a capture time in ms since the epoch']);
  });

  it('refuses an unknown ocrType, naming the choices', () => {
    expect(issues({ ...video, ocrType: 'gpt' })).toEqual(['ocrType: ocrType must be cloud or server here (local OCR runs in the browser and is logged with POST /logLocalUpload)']);
  });

  it('refuses a missing name with the spec message', () => {
    expect(issues({ ...video, uploadName: '   ' })).toEqual(['uploadName: Please name your upload before uploading.']);
  });

  it('refuses a video that makes more than 360 frames at the chosen interval', () => {
    expect(getUploadUrlRequestSchema.safeParse({ ...video, duration: 5400, targetFrameRate: 1 / 15 }).success).toBe(true); // exactly 360
    expect(issues({ ...video, duration: 5401, targetFrameRate: 1 / 15 })[0]).toMatch(/^targetFrameRate: Whoa that's a lot of frames: 361 .*limit is 360/);
  });

  it('refuses 361 browser-cut frames', () => {
    const timestamps = Array.from({ length: 361 }, (_, i) => String(i * 1000).padStart(10, '0'));
    expect(issues({ ...video, kind: 'frames', mimeType: 'image/jpeg', timestamps })[0]).toMatch(/^timestamps: .*at most 360/);
    expect(getUploadUrlRequestSchema.safeParse({ ...video, kind: 'frames', mimeType: 'image/jpeg', timestamps: timestamps.slice(0, 360) }).success).toBe(true);
  });

  it('refuses an interval that is not one of the choices', () => {
    expect(issues({ ...video, targetFrameRate: 1 / 7 })[0]).toMatch(/^targetFrameRate: targetFrameRate must be 1 \/ one of the interval choices/);
  });

  it('stops at the first refused number: one issue, and no frame count worked out from it', () => {
    expect(issues({ ...video, duration: -1 })).toEqual(['duration: duration must be the length of the video in seconds, above 0']);
    expect(issues({ ...video, mediaContent: 'presentation', duration: -1 })).toEqual(['duration: duration must be the length of the video in seconds, above 0']);
    expect(issues({ ...video, targetFrameRate: 0 })).toEqual(['targetFrameRate: targetFrameRate must be above 0']);
    expect(issues({ ...video, targetFrameRate: 1e308 })).toHaveLength(1);
    expect(issues({ ...video, size: 1e308 })).toEqual(['size: size must be the file size in bytes, a whole number above 0']);
  });

  it('refuses equal original and target languages in captions mode only', () => {
    const captions = { ...video, mediaContent: 'captions', originalLanguage: 'en', targetLanguage: 'en' };
    expect(issues(captions)).toEqual(['targetLanguage: Ensure original and target languages are not equal.']);
    expect(issues({ ...captions, targetLanguage: 'zh-TW' })).toEqual([]);
    expect(issues({ ...captions, mediaContent: 'numerical' })).toEqual([]);
  });

  it('refuses photos of mixed types and files that are not png or jpeg', () => {
    const photos = { kind: 'photos', uploadName: 'Set', mimeType: 'image/png' };
    expect(
      issues({ ...photos, files: [{ name: 'a.png', type: 'image/png', lastModified: 1 }, { name: 'b.jpg', type: 'image/jpeg', lastModified: 2 }] }),
    ).toEqual(['files.1.type: Please ensure multiple uploads are the same file type.']);
    expect(issues({ ...photos, files: [{ name: 'a.gif', type: 'image/png', lastModified: 1 }] })).toEqual([
      'files.0.name: Ensure multiple uploads are all photos and either .png or .jpeg.',
    ]);
  });

  it('refuses a video among several files with the spec message, whatever the case of its extension', () => {
    const files = [{ name: 'a.png', type: 'image/png', lastModified: 1 }, { name: 'clip.MOV', type: 'video/quicktime', lastModified: 2 }];
    expect(issues({ kind: 'photos', uploadName: 'Set', mimeType: 'image/png', files })).toEqual(['files: Please upload one .mov or .mp4 at a time.']);
    expect(issues({ isVideo: true, uploadName: 'Two', mimeType: 'video/mp4', duration: 10, files: [files[1], files[1]] })).toEqual(['files: Please upload one .mov or .mp4 at a time.']);
  });

  it('takes each of the spec\'s four modes, Scroll included, and names them when refusing another', () => {
    expect(getUploadUrlRequestSchema.parse({ ...video, mediaContent: 'scroll' }).mediaContent).toBe('scroll');
    expect(getUploadUrlRequestSchema.safeParse({ ...video, mediaContent: 'list' }).error?.issues[0]?.message).toBe('mediaContent must be numerical, captions, presentation or scroll');
  });

  it('turns on slide detection by default in presentation mode', () => {
    expect(getUploadUrlRequestSchema.parse({ ...video, mediaContent: 'presentation' }).slideDetection).toBe(true);
    expect(getUploadUrlRequestSchema.parse({ ...video, mediaContent: 'presentation', slideDetection: false }).slideDetection).toBe(false);
  });

  it('asks, with slide detection, for the most slides detection can keep: one per 2-s sample, whatever the interval', () => {
    // 72 s at the default 15-s interval would be 5 frames: too few for a deck of 17 builds.
    const deck = { ...video, duration: 72, targetFrameRate: 1 / 15, mediaContent: 'presentation' as const };
    expect(requestedFrames(getUploadUrlRequestSchema.parse(deck))).toBe(36);
    expect(requestedFrames(getUploadUrlRequestSchema.parse({ ...deck, slideDetection: false }))).toBe(5);
    // A two-hour lecture: the interval's 7200 frames would be refused, slide detection asks for the limit.
    const lecture = getUploadUrlRequestSchema.parse({ ...deck, duration: 7200, targetFrameRate: 1 });
    expect(requestedFrames(lecture)).toBe(360);
    expect(getUploadUrlRequestSchema.safeParse({ ...deck, duration: 7200, targetFrameRate: 1, slideDetection: false }).success).toBe(false);
  });

  it('keeps a valid video link and ignores any other', () => {
    expect(youtubeVideoId('https://youtu.be/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(youtubeVideoId('https://www.youtube.com/watch?t=3&v=dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(youtubeVideoId('https://www.youtube.com/embed/dQw4w9WgXcQ')).toBe('dQw4w9WgXcQ');
    expect(youtubeVideoId('https://www.youtube.com/watch?v=short')).toBeNull();
    expect(getUploadUrlRequestSchema.parse({ ...video, youtubeLink: 'not a link' }).youtubeLink).toBeNull();
  });
});

describe('a video by link (getUploadURL with a youtubeLink and no file)', () => {
  const byLink = { isVideo: true, uploadName: 'Talk', ocrType: 'server', targetFrameRate: 1 / 5 };

  it('takes the watch, embed, shorts and short-link forms with an 11-character id, and fetches the watch page of that id only', () => {
    for (const link of [
      'https://www.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://youtube.com/watch?feature=share&v=dQw4w9WgXcQ&t=42',
      'https://m.youtube.com/watch?v=dQw4w9WgXcQ',
      'https://www.youtube.com/embed/dQw4w9WgXcQ?start=10',
      'https://www.youtube.com/shorts/dQw4w9WgXcQ',
      'https://youtu.be/dQw4w9WgXcQ?si=abc',
      '  youtu.be/dQw4w9WgXcQ  ',
    ]) {
      const req = linkUploadRequestSchema.parse({ ...byLink, youtubeLink: link });
      expect(youtubeWatchUrl(youtubeVideoId(req.youtubeLink)!), link).toBe('https://www.youtube.com/watch?v=dQw4w9WgXcQ');
    }
  });

  it('refuses any other text with the sentence that shows the forms', () => {
    for (const link of ['not a link', 'https://www.youtube.com/watch?v=short', 'https://youtu.be/dQw4w9WgXcQx', 'https://vimeo.com/76979871', 'https://www.youtube.com/playlist?list=PL123']) {
      const parsed = linkUploadRequestSchema.safeParse({ ...byLink, youtubeLink: link });
      expect(parsed.success, link).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(VIDEO_LINK_FORMS_MESSAGE);
    }
  });

  it('is told from a file upload: a link and no file type; beside a file the link is ignored, as the spec says', () => {
    expect(isLinkUploadRequest({ ...byLink, youtubeLink: 'https://youtu.be/dQw4w9WgXcQ' })).toBe(true);
    expect(isLinkUploadRequest({ ...byLink, youtubeLink: 'garbage' })).toBe(true);
    expect(isLinkUploadRequest({ kind: 'link', youtubeLink: 'x' })).toBe(true);
    expect(isLinkUploadRequest({ ...video, youtubeLink: 'https://youtu.be/dQw4w9WgXcQ' })).toBe(false);
    expect(isLinkUploadRequest({ ...byLink, youtubeLink: null })).toBe(false);
    expect(isLinkUploadRequest({ ...byLink, youtubeLink: '  ' })).toBe(false);
    expect(isLinkUploadRequest({ ...byLink, isVideo: false, youtubeLink: 'https://youtu.be/dQw4w9WgXcQ' })).toBe(false);
  });

  it('keeps the request rules of a video: the interval choices, and slide detection on in presentation mode', () => {
    expect(linkUploadRequestSchema.safeParse({ ...byLink, youtubeLink: 'https://youtu.be/dQw4w9WgXcQ', targetFrameRate: 1 / 7 }).success).toBe(false);
    expect(linkUploadRequestSchema.parse({ ...byLink, youtubeLink: 'https://youtu.be/dQw4w9WgXcQ', mediaContent: 'presentation' }).slideDetection).toBe(true);
  });
});

describe('POST /deleteUploads body', () => {
  it('needs at least one id and the confirmation flag', () => {
    expect(deleteUploadsRequestSchema.safeParse({ uploads: ['u1'], deleteUploads: true }).success).toBe(true);
    expect(deleteUploadsRequestSchema.safeParse({ uploads: [], deleteUploads: true }).success).toBe(false);
    expect(deleteUploadsRequestSchema.safeParse({ uploads: ['u1'] }).success).toBe(false);
  });
});

describe('POST /logLocalUpload body', () => {
  const local = { uploadID: 'local-1700000000000', uploadName: 'Clip', duration: 100, targetFrameRate: 1 / 5, fileName: 'clip.mp4', ocrType: 'local' };

  it('accepts a local run within 200 frames', () => {
    expect(logLocalUploadRequestSchema.parse(local).mediaContent).toBe('numerical');
  });

  it('refuses more than 200 frames and ids without the local- prefix', () => {
    expect(logLocalUploadRequestSchema.safeParse({ ...local, duration: 1001 }).success).toBe(false);
    expect(logLocalUploadRequestSchema.safeParse({ ...local, uploadID: 'abc' }).success).toBe(false);
  });

  it('stops at the first refused number: one issue, and no frame count worked out from it', () => {
    for (const bad of [{ duration: -1 }, { duration: 0 }, { targetFrameRate: -1 }, { targetFrameRate: 5e-324 }]) {
      const result = logLocalUploadRequestSchema.safeParse({ ...local, ...bad });
      expect(result.success ? [] : result.error.issues, JSON.stringify(bad)).toHaveLength(1);
    }
  });
});
