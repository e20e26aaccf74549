import type { Post } from './types';

export const scrollListExtraction: Post = {
  slug: 'scroll-list-extraction',
  title: 'Collecting every item from a scrolled list',
  subtitle: 'Order histories, playlists, leaderboards, chat logs: when an app will not export a list, record yourself scrolling through it and let the Scroll view pick out each item.',
  date: '2025-09-09',
  picture: 'scroll-list',
  pictureAlt: 'A phone showing a list with one item outlined as a template, an arrow showing the list scrolling, and a numbered table of the items found.',
  body: [
    {
      kind: 'p',
      text: 'Plenty of apps show you a long list and offer no way to take it with you: a year of orders, a music library, a ranking, the members of a group. A screen recording of you scrolling through it contains every item, but as pictures. The Scroll view turns that recording into a table: you show it one item, and it finds every other item that looks like it, frame after frame, and drops the ones it has already seen.',
    },
    { kind: 'h2', text: 'Record the scroll well' },
    {
      kind: 'list',
      items: [
        'Use the device’s own screen recorder. It captures the screen at full resolution without glare, which a camera pointed at a phone never does.',
        'Scroll slowly and steadily. Each item should be visible, and sharp, in at least two frames at the interval you plan to use; a fling that blurs the screen is lost.',
        'Start at the top, stop at the bottom, and do not scroll back up. Going back is not harmful, since duplicates are removed, but it costs frames.',
        'Turn off notifications first. A banner sliding over the list hides the items beneath it.',
      ],
    },
    { kind: 'h2', text: 'Step by step' },
    {
      kind: 'steps',
      items: [
        'In the [upload wizard](/upload), choose the recording and pick Scroll as the media content.',
        'Set a short interval: half a second suits a steady scroll. A one-minute recording at half a second is 120 frames, 12 credits on the Basic engine.',
        'Upload, then open the results: they open on the Scroll tab.',
        'Move to a frame where one complete item is visible. Drag the purple template box over it and resize it by its corners so it holds the whole item and nothing from its neighbours.',
        'Press Lock Template, then Detect Items. The results table lists every match with its frame, its text and how closely it matched.',
        'Tick Ignore duplicates, and adjust the duplicate threshold if the same item is listed twice with slightly different readings.',
        'Export CSV or TXT. The unique-items file is usually what you want; the all-items file keeps every sighting for checking.',
      ],
    },
    {
      kind: 'tip',
      title: 'Tuning the detection',
      text: 'Three sliders decide what counts as an item. Line position tolerance allows for items whose lines sit a little higher or lower than the template’s; line count tolerance allows items with an extra or a missing line, such as a long title that wraps; minimum similarity is the overall bar. If items are missed, loosen one at a time; if headers or adverts are picked up, tighten them.',
    },
    { kind: 'h2', text: 'Interval, engines and credits' },
    {
      kind: 'p',
      text: 'Scroll recordings need short intervals, because the content moves, so frame counts rise quickly. One upload holds up to 360 frames: three minutes at half a second. For a long list, record it in parts and upload each; the unique lists are easy to join afterwards. On the Basic engine, which reads clean app text very well, 360 frames cost 36 credits. Cloud AI costs one credit per frame and pays off for small type, emoji-heavy chats or scripts other than Latin. Local, at twenty frames per credit, keeps a private list on your own computer, within its 200-frame limit.',
    },
    {
      kind: 'table',
      caption: 'A two-minute scroll at different intervals',
      head: ['Interval', 'Frames', 'Basic', 'Cloud AI'],
      rows: [
        ['0.25 s', '480 (over 360: split it)', '48 credits in total', '480 credits in total'],
        ['0.5 s', '240', '24 credits', '240 credits'],
        ['1 s', '120', '12 credits', '120 credits'],
      ],
    },
    { kind: 'h2', text: 'Honest limits' },
    {
      kind: 'list',
      items: [
        'The template matches items that share a layout. Lists that mix layouts, such as a product row followed by a banner, need one pass per layout.',
        'Sticky headers and floating buttons cover part of the list in every frame. Place the template where they do not overlap, and check the items nearest to them.',
        'Items that are cut off at the top or bottom of the screen are matched only when they are fully visible in some frame, which is why a slow scroll matters.',
        'Duplicate removal compares text. Two genuinely identical items, such as two orders of the same thing, may be merged; the all-items export lets you check.',
      ],
    },
    {
      kind: 'p',
      text: 'A careful one-minute recording and five minutes in the Scroll view usually beat an afternoon of copying. To see what a processed upload looks like before you record anything, open the [demo](/demo).',
    },
  ],
};
