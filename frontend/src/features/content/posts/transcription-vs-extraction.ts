import type { Post } from './types';

export const transcriptionVsExtraction: Post = {
  slug: 'transcription-vs-extraction',
  title: 'Transcription or extraction: what is said versus what is shown',
  subtitle: 'Speech-to-text and on-screen text extraction answer different questions about the same video. Knowing which one you need saves time and money.',
  date: '2025-08-05',
  picture: 'speech-vs-screen',
  pictureAlt: 'On the left, a sound wave becoming lines of text; on the right, a screen with a temperature and a lap counter becoming rows of a table.',
  body: [
    {
      kind: 'p',
      text: 'People often ask whether FrameText can “get the text out of a video”. It can, but only one kind of text. A video carries words in two places: in its sound, when someone speaks, and in its picture, when something is written on screen. Transcription turns the first into text; extraction, which is what FrameText does, turns the second into text and numbers. They overlap less than you would think.',
    },
    { kind: 'h2', text: 'Transcription: the words in the audio' },
    {
      kind: 'p',
      text: 'A speech-to-text service listens to the soundtrack and writes down what was said. It is the right tool for interviews, podcasts, meetings and lectures where the content lives in the speaker’s voice. It knows nothing about the picture: a number on a slide that the speaker never reads aloud does not exist for it. Transcription is usually priced by the minute of audio, so an hour costs the same whether the screen is blank or full of figures.',
    },
    { kind: 'h2', text: 'Extraction: the words and numbers in the picture' },
    {
      kind: 'p',
      text: 'On-screen extraction looks at frames and reads whatever is written there: slides, dashboards, instrument readouts, scoreboards, names in a lower third, burned-in subtitles, chat windows, spreadsheets in a screen recording. It ignores the soundtrack entirely. Because it works frame by frame, it keeps positions and times, which is what makes a series of numbers possible: the same readout, followed through the video, becomes a column in a CSV. In FrameText the cost depends on how many frames you read, not on how long the video is: an hour at one frame every 15 seconds is 240 frames, which is 24 credits on the Basic engine.',
    },
    {
      kind: 'table',
      caption: 'Which one answers your question',
      head: ['You want', 'Use'],
      rows: [
        ['What the interviewee said', 'Transcription'],
        ['The numbers on a dashboard, gauge or scoreboard over time', 'Extraction (Numerical)'],
        ['The text of the slides in a recorded talk', 'Extraction (Presentation)'],
        ['Subtitles that are burned into the picture', 'Extraction (Region)'],
        ['Every item in a feed or list someone scrolled through', 'Extraction (Scroll)'],
        ['Full notes of a lecture: what was said and what was shown', 'Both, joined by timestamp'],
      ],
    },
    { kind: 'h2', text: 'When burned-in captions make transcription unnecessary' },
    {
      kind: 'p',
      text: 'If a video already shows its dialogue as subtitles, reading them is often better than listening. The captions were written and checked by a person, names are spelled correctly, and background noise does not matter. [Region mode](/blog/caption-extraction) reads just the caption area and exports every line with its time. It cannot help with speech that was never captioned, and it reads captions as they appear, including any mistakes the subtitler made.',
    },
    { kind: 'h2', text: 'Using both' },
    {
      kind: 'steps',
      items: [
        'Run the audio through the transcription tool of your choice and export it with timestamps (most can write SRT or VTT).',
        'Upload the same video to FrameText with the mode that matches the picture, for example Presentation for a talk, and export the text.',
        'Join the two on time: for each slide, take the transcript lines from the moment it appeared until the next slide. A spreadsheet lookup on the start times is enough.',
        'You now have notes in which every slide is followed by what the speaker said about it, which is far easier to skim than either on its own.',
      ],
    },
    {
      kind: 'tip',
      title: 'Match the interval to the picture, not the audio',
      text: 'Speech changes every second; slides and readouts usually do not. Choose the frame interval from how often the screen changes. A talk needs one frame per slide, which slide detection finds for you; a scoreboard might need one every five seconds; a ticker one every second.',
    },
    { kind: 'h2', text: 'Honest limits of each' },
    {
      kind: 'list',
      items: [
        'FrameText does not transcribe audio. If the information is only spoken, you need a transcription tool.',
        'Transcription cannot read a chart, a number that is not spoken, or a name that is mispronounced.',
        'Extraction reads only what is legible in the frames you ask for. Text that is tiny, blurred or on screen for less than your interval will be missed.',
        'Neither is perfect. Check figures and names against the source before you publish them.',
      ],
    },
    {
      kind: 'p',
      text: 'Not sure what your video needs? Open the [demo](/demo) to see what extraction returns, and ask yourself whether the answer you are after is on the screen or in the speaker’s voice.',
    },
  ],
};
