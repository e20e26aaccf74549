import type { UploadDetailsResponse } from '@frametext/contracts';
import { rectVertices } from '@frametext/text-analysis';

/*
 * Test helpers for the results pages: upload details to serve from the fake gateway (testing/fakeGateway).
 */

/** Two frames of a video: "42.5 kW" then "SOC 81%". */
export function sampleDetails(overrides: Partial<UploadDetailsResponse['uploadData']> = {}, texts: [string, string] = ['42.5 kW', 'SOC 81%']): UploadDetailsResponse {
  return {
    uploadData: {
      uploadName: 'Charger screen',
      createdAt: { _seconds: 1_754_049_600 },
      ocrType: 'server',
      isVideo: true,
      mediaContent: 'numerical',
      targetFrameRate: 5,
      maxFrames: 2,
      creditCost: 1,
      source: 'upload',
      status: 'processed',
      mimeType: 'video/mp4',
      basePath: 'uploads/u-1',
      ownerUid: 'u1',
      userID: 'u1',
      originalLanguage: null,
      targetLanguage: null,
      sortPreference: null,
      processedAt: '2025-08-01T12:05:00.000Z',
      uploadedAt: '2025-08-01T12:00:00.000Z',
      ...overrides,
    },
    results: {
      results: texts.map((text, i) => (text ? [{ text, vertices: rectVertices({ x: 100 + i * 10, y: 50, w: 200, h: 40 }), area: 8000, blockType: 'LINE' }] : [])),
      maxValues: { maxTextLength: 7 },
      linesByFrame: texts.map((text) => (text ? [{ text }] : [])),
      ocrResults: texts.map((text, i) => ({ t: i * 5, fileIndex: i, text, detections: [] })),
      processingType: 'numerical',
      resultsUrl: null,
    },
    urls: ['http://files.test/0000000000.jpg', 'http://files.test/0000005000.jpg'],
  };
}
