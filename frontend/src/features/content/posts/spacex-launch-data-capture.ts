import type { Post } from './types';

export const spacexLaunchDataCapture: Post = {
  slug: 'spacex-launch-data-capture',
  title: 'Capturing launch telemetry from a webcast',
  subtitle: 'The speed and altitude overlay on a launch stream is a free data set. Here is how to turn it into a table you can plot, second by second.',
  date: '2025-04-22',
  picture: 'launch',
  pictureAlt: 'A launch webcast frame with a rising trajectory, a mission clock at T plus 2 minutes 41, and boxes drawn around the speed and altitude readouts.',
  body: [
    {
      kind: 'p',
      text: 'Launch webcasts from SpaceX and other providers put live telemetry on screen: a mission clock, the vehicle’s speed and its altitude, sometimes for the booster and the upper stage side by side. Students use it to check the rocket equation against reality, hobbyists use it to compare missions, and teachers use it because it makes acceleration visible. None of it is published as a file. FrameText can read it off the video, one frame at a time.',
    },
    { kind: 'h2', text: 'Get the right piece of video' },
    {
      kind: 'p',
      text: 'A full webcast runs for forty minutes or more, most of it before lift-off or after the interesting part is over. The frame interval applies to the whole video, so trim it first to the span you want, typically from lift-off to second-stage engine cutoff, about nine minutes. Importing straight from a video link is coming soon; until then, save the segment as an mp4 or mov using a tool and source whose terms allow it. Record at the stream’s full resolution: the overlay digits are small, and every pixel helps.',
    },
    { kind: 'h2', text: 'Step by step' },
    {
      kind: 'steps',
      items: [
        'Open the [upload wizard](/upload) and choose your trimmed clip. Name it after the mission so you can find it in your uploads later.',
        'Set the media content to Numerical. This keeps every text block in its place and follows it across frames, which is what a telemetry readout needs.',
        'Pick the interval. For the whole ascent, three seconds gives 180 frames for nine minutes. For the first three minutes only, through max-Q and stage separation, one second gives 180 frames at much finer detail.',
        'Check the cost panel, upload, and wait for the frames to be read.',
        'In the Numerical tab, click the speed readout, the altitude readout and the mission clock, and lock each series. Three columns: the clock is the one that matters for timing.',
        'Clean each series. For speed, remove the unit and the thousands separator (add “,” to the characters to remove) and switch on numbers only; for altitude, do the same with its unit.',
        'Export as csv and open it in a spreadsheet or a notebook.',
      ],
    },
    {
      kind: 'tip',
      title: 'Use the mission clock, not the video time',
      text: 'Webcasts cut to the crowd, replay stage separation and jump between cameras. The time column in the export is video time; the T+ clock on screen is mission time. Plot against the clock you captured and the replays stop distorting the curve.',
    },
    { kind: 'h2', text: 'Engines and credits' },
    {
      kind: 'p',
      text: 'The overlay is clean white text on a dark band, which suits the Basic engine well: 180 frames cost 18 credits. Cloud AI reads one frame per credit, so the same upload costs 180 credits; it earns that when the overlay sits on top of bright footage, such as a sunrise launch, or when the font is thin and small. Local, at twenty frames per credit, is a good way to run a quick test on your own machine before you commit, as long as you stay under its 200-frame limit.',
    },
    {
      kind: 'table',
      caption: 'Nine minutes of ascent at different intervals',
      head: ['Interval', 'Frames', 'Basic', 'Cloud AI'],
      rows: [
        ['1 s', '540 (over 360: split into two clips)', '54 credits in total', '540 credits in total'],
        ['3 s', '180', '18 credits', '180 credits'],
        ['5 s', '108', '11 credits', '108 credits'],
      ],
    },
    { kind: 'h2', text: 'What to do with the numbers' },
    {
      kind: 'list',
      items: [
        'Acceleration: take the difference between consecutive speed readings and divide by the difference in mission time. Convert km/h to m/s first (divide by 3.6) and you get m/s², which you can compare with g.',
        'Max-Q and throttle-down: look for the dip in acceleration a minute or so after lift-off, when the vehicle throttles back through peak aerodynamic pressure.',
        'Staging: speed levels off or even falls for a few seconds at stage separation; after it, many webcasts switch to the upper stage’s numbers.',
        'Mission comparison: export two launches with the same interval and put them on one chart against mission time.',
      ],
    },
    { kind: 'h2', text: 'Honest limits' },
    {
      kind: 'list',
      items: [
        'The overlay is rounded and can lag the vehicle by a second or two. It is a good teaching data set, not flight-grade telemetry.',
        'When the broadcast hides the overlay, during replays or camera switches, those frames have no value. Raise Allowable Disappearance so the series carries on, and expect blank cells.',
        'If the overlay shows booster and upper-stage numbers side by side, select each as its own series; if the two panels swap places, tracking may join the wrong ones, so check the frame viewer around separation.',
        'Digits that change every frame, like speed during ascent, can blur in compressed video. If a value looks impossible, open that frame and correct it by hand.',
      ],
    },
    {
      kind: 'p',
      text: 'Once the table is clean, a single scatter plot of speed and altitude against mission time tells the whole story of an ascent, and you made it from a video anyone can watch.',
    },
  ],
};
