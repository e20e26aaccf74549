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
      text: 'The frame interval you choose still matters, because it sets the most frames the upload may use and therefore the credits the wizard reserves. Pick an interval whose frame count is larger than the number of slides you expect. A 50-minute lecture with about 30 slides fits comfortably at one frame a minute: that allows 50 frames, 5 credits on the Basic engine.',
    },
    { kind: 'h2', text: 'Step by step' },
    {
      kind: 'steps',
      items: [
        'Open the [upload wizard](/upload) and choose the recording (mp4 or mov). If you only have screenshots of the slides, select them all instead; each photo is read as one frame.',
        'Set the media content to Presentation and leave Slide detection on.',
        'Choose an interval that allows more frames than the talk has slides; the cost panel shows the frame count and the credits it reserves.',
        'Pick an engine and upload. The progress bar shows the upload first, then the frames as they are read.',
        'Open the results. The Presentation tab lists the frames with their thumbnails and text; frames whose text is almost the same as the previous one are marked “Similar to previous”.',
        'Adjust the similarity filter if needed, check or uncheck frames, and download the selected text as a .txt file, or copy it to the clipboard.',
      ],
    },
    {
      kind: 'tip',
      title: 'Why there are still near-duplicates',
      text: 'Slide detection reacts to pixels, so a bullet point appearing, a speaker’s video thumbnail moving or a mouse pointer crossing the slide can all count as a change. The similarity filter compares the words instead: frames that share at least 95% of their words with the previous one are unselected by default. Lower the threshold to merge build-up slides into their final state.',
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
