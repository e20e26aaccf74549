import { describe, expect, it } from 'vitest';
import { MAX_OCR_WORKERS, OCR_ENGINE_MODE, OCR_PARAMETERS, workerCount } from './ocrPool';

describe('the OCR pool', () => {
  it('runs up to 3 workers, leaving a core to the page, and never more than there are frames', () => {
    expect(MAX_OCR_WORKERS).toBe(3);
    expect(workerCount(40, 8)).toBe(3);
    expect(workerCount(40, 4)).toBe(3);
    expect(workerCount(40, 2)).toBe(1);
    expect(workerCount(40, 1)).toBe(1);
    expect(workerCount(2, 8)).toBe(2);
  });

  it('sets what tesseract.js leaves unlike the CLI: automatic page segmentation (3) and the LSTM engine (1)', () => {
    expect(OCR_PARAMETERS).toEqual({ tessedit_pageseg_mode: '3' });
    expect(OCR_ENGINE_MODE).toBe(1);
  });
});
