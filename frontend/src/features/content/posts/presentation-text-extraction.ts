import type { Post } from './types';

export const presentationTextExtraction: Post = {
  slug: 'presentation-text-extraction',
  title: 'How to pull the text out of a slide deck recording',
  subtitle: 'A recorded lecture or webinar holds every slide. Presentation mode gives you their text as notes, one slide at a time, without paying for the minutes in between.',
  date: '2025-05-20',
  picture: 'slides',
  pictureAlt: 'Three slides stacked on top of each other, with an arrow to a page of notes made from their titles and bullet points.',
  body: [
    {
      kind: 'p',
      text: 'You have the recording of a talk but not the deck, or the deck is a PDF of pictures that no search can find. The words are all there on screen; they are just locked inside a video. Presentation mode reads each slide as lines and paragraphs in reading order, so what you get back looks like notes, not like a scatter of words.',
    },
    { kind: 'h2', text: 'How slide detection keeps the cost down' },
    {
      kind: 'p',
      text: 'A slide stays on screen for a minute or more, so reading the video at a fixed interval mostly reads the same slide again and again. With slide detection switched on (it is on by default in Presentation mode), FrameText looks at the video every two seconds and keeps a frame only when the picture has changed: when more than 1% of the pixels differ noticeably in brightness from the previous sample. Each kept frame is a new slide, and only those are read.',
    },
    {
      kind: 'p',
      text: 'With slide detection the frame interval is not used. The wizard reserves credits for the most frames detection could keep, one every two seconds (at most 360), and shows them as “at most”; you pay only for the frames it keeps, and the rest comes back when processing ends. A 50-minute lecture reserves 36 credits on the Basic engine; with about 30 slides, a few of them built up bullet by bullet, it keeps around 45 frames and costs 5.',
    },
    { kind: 'h2', text: 'Step by step' },
    {
      kind: 'steps',
      items: [
        'Open the [upload wizard](/upload) and choose the recording (mp4 or mov). If you only have screenshots of the slides, select them all instead; each photo is read as one frame.',
        'Set the media content to Presentation and leave Slide detection on.',
        'Check the cost panel: it shows the most frames and credits the upload can use, and says you pay for the frames slide detection keeps.',
        'Pick an engine and upload. The progress bar shows the upload first, then the frames as they are read.',
        'Open the results. The Presentation tab lists the frames with their thumbnails and text. A slide that builds up bullet by bullet is kept once, at its fullest: its earlier builds are marked “Earlier build” and start unchecked. Frames whose text is almost the same as the previous one are marked “Similar to previous”.',
        'Adjust the similarity filter if needed, check or uncheck frames, and download the selected text as a .txt file, or copy it to the clipboard.',
      ],
    },
    {
      kind: 'tip',
      title: 'Why there are still near-duplicates',
      text: 'Slide detection reacts to pixels, so a bullet point appearing, a speaker’s video thumbnail moving or a mouse pointer crossing the slide can all count as a change. Bullets appearing are handled for you: a frame whose words the next frame shows, with more, is an earlier build and starts unchecked. For the rest the similarity filter compares the words: “Unselect similar frames” unchecks frames that share at least 95% of their words with the previous one.',
    },
    { kind: 'h2', text: 'Which engine' },
    {
      kind: 'list',
      items: [
        'Basic (10 frames per credit) is the right choice for most decks: slides are large, high-contrast, and usually set in plain fonts.',
        'Cloud AI (1 frame per credit), where your server offers it, is worth it for slides photographed from the audience, hand-drawn diagrams, decorative fonts or languages other than English.',
        'Local (20 frames per credit, up to 200 frames, English) is handy for a confidential internal meeting: the video is read in your browser and never uploaded.',
      ],
    },
    { kind: 'h2', text: 'Getting good results' },
    {
      kind: 'list',
      items: [
        'Use the screen-share recording rather than a camera pointed at a projector when you can. Perspective, glare and heads in the way all cost accuracy.',
        'If the recording puts the slides in a small window next to the speaker, the text is small too. Crop the video to the slide area before uploading; higher resolution on the text matters more than anything else.',
        'Transitions and animations are sampled every two seconds. A slide that is shown for less than that may be missed; if a talk flicks through slides quickly, switch detection off and use a short fixed interval instead.',
        'Speaker notes are not part of the video, so they are not part of the text. Only what is on screen is read.',
      ],
    },
    { kind: 'h2', text: 'Honest limits' },
    {
      kind: 'p',
      text: 'Presentation mode gives you text in reading order, not a rebuilt slide deck: tables come back as lines, charts as their labels, and equations as whatever characters the engine recognises, which is rarely what you want for mathematics. Text inside images on a slide is read along with everything else, so a photo of a street sign will appear in your notes. And OCR is not proofreading; check names and numbers before you quote them.',
    },
    {
      kind: 'p',
      text: 'For a talk whose value is in what was said rather than what was shown, read our comparison of [transcription and on-screen extraction](/blog/transcription-vs-extraction); often the best notes combine the two.',
    },
  ],
};
