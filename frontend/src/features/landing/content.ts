import { LOCAL_MAX_FRAMES, RETENTION_DAYS, type Engine } from '@frametext/contracts/rules';

/** The landing page's copy, kept apart from its layout so a writer can change one without the other. */

export interface ModeCard {
  title: string;
  tagline: string;
  text: string;
  /** The blog post that walks through this mode, when there is one. */
  post?: { href: string; label: string };
}

export const MODE_CARDS: ModeCard[] = [
  {
    title: 'Presentation',
    tagline: 'Slides, lectures and screen shares',
    text: 'Reads each frame as lines and paragraphs you can paste into notes. Slide detection keeps one frame per slide, so a 40-minute talk costs what its slides cost.',
    post: { href: '/blog/presentation-text-extraction', label: 'How to pull the text out of a slide deck recording' },
  },
  {
    title: 'Numerical',
    tagline: 'Dashboards, gauges and readouts',
    text: 'Keeps every text block in place and follows it from frame to frame. Pick the numbers you care about and export them as a time series.',
    post: { href: '/blog/ev-charge-curve-analysis', label: 'Charting an EV charging curve from a phone video' },
  },
  {
    title: 'Region',
    tagline: 'Captions, subtitles and tickers',
    text: 'Draw up to four boxes on the frame and get the text inside each one, by timestamp, ready for a subtitle file or a translation.',
    post: { href: '/blog/caption-extraction', label: 'Getting burned-in captions out by timestamp' },
  },
  {
    title: 'Scroll',
    tagline: 'Feeds, chats and long lists',
    text: 'Mark one list item as a template and FrameText finds every item like it as the list scrolls past, without the duplicates.',
  },
];

export interface FeatureCard {
  title: string;
  text: string;
}

export const FEATURE_CARDS: FeatureCard[] = [
  {
    title: 'Video, photos or a photo series',
    text: 'Upload an mp4 or mov, a single png or jpeg, or a whole series of photos ordered by file name or by the time they were taken.',
  },
  {
    title: 'You set the pace',
    text: 'Capture a frame every tenth of a second or once an hour. The frame count and the credit cost are shown before anything is uploaded.',
  },
  {
    title: 'Blocks tracked across frames',
    text: 'A reading that drifts a few pixels or blinks out for a frame stays the same series, so your columns line up.',
  },
  {
    title: 'Clean-up before export',
    text: 'Strip units and labels, split on a character, keep numbers only: the numbers arrive in your spreadsheet ready to plot.',
  },
  {
    title: 'CSV and TXT out',
    text: 'One row per frame with its timestamp, one column per value. Opens in Excel, Google Sheets, pandas or R without fixing anything.',
  },
  {
    title: 'Your media does not linger',
    text: `Uploads and their frames are deleted after ${RETENTION_DAYS} days, or as soon as you delete them. The Local engine never sends your video anywhere.`,
  },
];

export interface EngineCopy {
  engine: Engine;
  name: string;
  goodAt: string;
  where: string;
}

export const ENGINE_COPY: EngineCopy[] = [
  {
    engine: 'cloud',
    name: 'Cloud AI',
    goodAt: 'Small, stylised or low-contrast text, busy backgrounds, phone footage filmed at an angle, and most of the world’s scripts.',
    where: 'Frames are read by Google Cloud Vision.',
  },
  {
    engine: 'server',
    name: 'Basic',
    goodAt: 'Clean digital text: screen recordings, slides, dashboards and overlays with good contrast. The best value for long recordings.',
    where: 'Frames are read by Tesseract on FrameText’s own servers.',
  },
  {
    engine: 'local',
    name: 'Local',
    goodAt: `Private or sensitive footage and quick checks on short English-language videos, up to ${LOCAL_MAX_FRAMES} frames at a time.`,
    where: 'Runs in your browser; the video never leaves your computer.',
  },
];
