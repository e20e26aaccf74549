import type { Post } from './types';

export const captionExtraction: Post = {
  slug: 'caption-extraction',
  title: 'Getting burned-in captions out by timestamp',
  subtitle: 'When subtitles are part of the picture there is no file to download. Region mode reads the caption area frame by frame and exports every line with its time.',
  date: '2025-06-17',
  picture: 'captions',
  pictureAlt: 'A video frame with a caption bar at the bottom, outlined by a dashed selection box, beside a list of caption lines with their timestamps.',
  body: [
    {
      kind: 'p',
      text: 'Many videos carry their subtitles burned into the image: social clips, festival screeners, old broadcasts, interviews re-edited for the web. A player cannot switch them off and no site offers them as a file. If you need the words, to translate them, index them, quote them or check them, the only source is the picture itself. Region mode reads just the area where the captions sit and gives you each line with the time it appeared.',
    },
    { kind: 'h2', text: 'Why a region, and not the whole frame' },
    {
      kind: 'p',
      text: 'Reading the whole frame picks up everything: a channel logo, a street sign behind the speaker, a lower-third with a name. A box around the caption area keeps only the subtitle text, and a block counts as inside a box only when it lies entirely within it. You can draw up to four boxes, in green, blue, red and yellow, so a name strap, a location line and two caption rows (say, an original language and a translation) each get their own column.',
    },
    { kind: 'h2', text: 'Step by step' },
    {
      kind: 'steps',
      items: [
        'In the [upload wizard](/upload), choose the video and set the media content to Region (the captions mode).',
        'Set the original language of the captions. If you want a translated line as well, choose a target language; if not, leave it on Same. The two must differ, or the wizard clears the target.',
        'Pick a frame interval. Captions usually stay on screen for one and a half to six seconds, so one second catches every line; the cost panel shows what that means for your video.',
        'Upload, and open the results when processing finishes.',
        'In the Region tab, enable a box. It starts as a wide band near the bottom of the frame; drag and resize it so the longest caption fits inside with a little room to spare.',
        'Step through a few frames with Prev and Next to check that two-line captions and the highest and lowest lines all fall inside.',
        'Export. The CSV has a row per frame with its time and one column per box; lines that appear together are joined with a vertical bar. A TXT export is there too.',
      ],
    },
    {
      kind: 'table',
      caption: 'Intervals and costs for a five-minute clip',
      head: ['Interval', 'Frames', 'Basic', 'Cloud AI'],
      rows: [
        ['1 s', '300', '30 credits', '300 credits'],
        ['3 s', '100', '10 credits', '100 credits'],
        ['0.5 s', '600 (over 360: split the clip)', '60 credits in total', '600 credits in total'],
      ],
    },
    {
      kind: 'tip',
      title: 'Long videos',
      text: 'One upload holds at most 360 frames, which is six minutes at one frame a second. For a 25-minute episode, cut it into five parts and upload each. Each part’s times start again from zero, so add the part’s starting time back in the spreadsheet before you join the exports.',
    },
    { kind: 'h2', text: 'From frames to subtitles' },
    {
      kind: 'p',
      text: 'Because a caption stays on screen for several frames, the export repeats each line two to six times. Collapse consecutive rows with the same text and keep the first and last time of each run: that is a start and end time, which is all a subtitle file needs. A spreadsheet formula comparing each row with the one above, or a few lines of Python, will do it. Sort on the time column, not the frame column, if you joined several parts.',
    },
    { kind: 'h2', text: 'Which engine' },
    {
      kind: 'p',
      text: 'Subtitles are designed to be legible: white or yellow text with an outline or a shadow. The Basic engine handles clean subtitles in Latin scripts well at ten frames per credit. Choose Cloud AI, where it is offered, for non-Latin scripts, stylised social-media captions with coloured highlights, or text over busy, bright footage; it costs one credit a frame, so use the widest interval that still catches every line.',
    },
    { kind: 'h2', text: 'Honest limits' },
    {
      kind: 'list',
      items: [
        'A caption that flashes on for less than your interval can be missed entirely. If lines go by fast, use a shorter interval on a shorter clip.',
        'Word-by-word animated captions produce a row for every partial line. Keep the longest version of each line and drop the rest.',
        'Outlines and shadows sometimes turn into stray characters such as a lone quote mark or a bar. They are easy to find and remove in the export.',
        'Translations are machine translations of what was read. They are a good way to understand a clip, not a finished subtitle track.',
      ],
    },
    {
      kind: 'p',
      text: 'Captions are also a shortcut for transcription: when a video already has burned-in subtitles, reading them is often cheaper and more accurate than listening. More on that in [transcription versus extraction](/blog/transcription-vs-extraction).',
    },
  ],
};
