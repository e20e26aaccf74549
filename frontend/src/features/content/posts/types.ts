/** Which drawing illustrates a post; each is an inline SVG in components/PostPicture.tsx. */
export type PictureKind = 'charger' | 'launch' | 'slides' | 'captions' | 'speech-vs-screen' | 'scroll-list';

/**
 * One piece of an article. Text may hold internal links written as [words](/path); nothing else is parsed,
 * so a post cannot inject markup.
 */
export type Block =
  | { kind: 'p'; text: string }
  | { kind: 'h2'; text: string }
  | { kind: 'steps'; items: string[] }
  | { kind: 'list'; items: string[] }
  | { kind: 'tip'; title: string; text: string }
  | { kind: 'table'; caption: string; head: string[]; rows: string[][] };

export interface Post {
  slug: string;
  title: string;
  subtitle: string;
  /** Publication date, YYYY-MM-DD. */
  date: string;
  picture: PictureKind;
  /** What the picture shows, for people who cannot see it. */
  pictureAlt: string;
  body: Block[];
}
