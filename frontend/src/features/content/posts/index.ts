import { captionExtraction } from './caption-extraction';
import { evChargeCurveAnalysis } from './ev-charge-curve-analysis';
import { presentationTextExtraction } from './presentation-text-extraction';
import { scrollListExtraction } from './scroll-list-extraction';
import { spacexLaunchDataCapture } from './spacex-launch-data-capture';
import { transcriptionVsExtraction } from './transcription-vs-extraction';
import type { Post } from './types';

/** Every post, newest first. */
export const POSTS: readonly Post[] = [
  evChargeCurveAnalysis,
  spacexLaunchDataCapture,
  presentationTextExtraction,
  captionExtraction,
  transcriptionVsExtraction,
  scrollListExtraction,
].sort((a, b) => b.date.localeCompare(a.date));

export function findPost(slug: string | undefined): Post | undefined {
  return POSTS.find((post) => post.slug === slug);
}

export type { Post } from './types';
