import type { Post } from './types';

export const evChargeCurveAnalysis: Post = {
  slug: 'ev-charge-curve-analysis',
  title: 'Charting an EV charging curve from a phone video',
  subtitle: 'Film the charger’s screen, let FrameText read the kilowatts every few seconds, and plot power against state of charge in a spreadsheet.',
  date: '2025-03-12',
  picture: 'charger',
  pictureAlt: 'A charger screen showing 142 kW and 58 percent, with an arrow to a chart of power rising quickly, levelling off and tapering as the battery fills.',
  body: [
    {
      kind: 'p',
      text: 'Every fast charger shows the same two numbers while it works: how much power is flowing and how full the battery is. Written down every few seconds, those two numbers are a charging curve, the single most useful picture of how a car behaves on a road trip. Most cars do not export it, and copying it by hand from a screen for half an hour is nobody’s idea of a good afternoon. A phone video and FrameText’s Numerical mode do the copying for you.',
    },
    { kind: 'h2', text: 'What you need' },
    {
      kind: 'list',
      items: [
        'A phone on a mount or a small tripod pointed at the charger’s display (or the car’s own charging screen, which often shows more decimals).',
        'A recording that covers the whole session, or at least the part you care about; most people stop at 80%.',
        'A FrameText account. New accounts start with free credits, usually enough for one session like this on the Basic engine.',
      ],
    },
    { kind: 'h2', text: 'Step by step' },
    {
      kind: 'steps',
      items: [
        'Frame the screen so the power and percentage fill a good part of the picture. Tilt the phone a little to keep reflections of the sky off the glass; glare is the most common reason a digit is misread.',
        'Record continuously at normal speed. A time-lapse saves storage, but then the video clock no longer matches the wall clock and you have to rescale every timestamp afterwards.',
        'In the [upload wizard](/upload), choose the video, name the upload (for example “Ionna 350 kW, 10 to 80%”), set the media content to Numerical and pick an engine.',
        'Choose a frame interval. Ten seconds suits most sessions; the cost panel shows the frame count and credits before you upload, so you can try a couple of intervals and compare.',
        'Upload, and watch the progress bar count frames as they are read. When it finishes, open the results.',
        'In the Numerical tab, click the box around the power reading. FrameText names the series after its text and follows that block from frame to frame. Do the same for the percentage, then lock both series.',
        'Open each series’ edit panel and clean it: remove the word “kW” or the “%” sign and switch on numbers only. The results table updates as you type.',
        'Press Export as csv. You get one row per frame with its time and one column per series, ready to chart.',
      ],
    },
    {
      kind: 'table',
      caption: 'What a 30-minute session costs at different intervals',
      head: ['Interval', 'Frames', 'Basic', 'Local', 'Cloud AI'],
      rows: [
        ['30 s', '60', '6 credits', '3 credits', '60 credits'],
        ['10 s', '180', '18 credits', '9 credits', '180 credits'],
        ['5 s', '360', '36 credits', 'over the 200-frame limit', '360 credits'],
      ],
    },
    { kind: 'h2', text: 'Choosing the interval' },
    {
      kind: 'p',
      text: 'Chargers refresh their display every one to five seconds, but the interesting parts of a curve change over minutes: the ramp-up in the first minute, the plateau, and the taper that starts somewhere between 50% and 70%. At ten seconds you get six points a minute, enough to see every step in the taper. Going finer mostly adds noise from the car’s own power management. One upload can hold up to 360 frames, so a 30-minute session at five seconds is right at the limit and anything longer needs a wider interval or two uploads.',
    },
    {
      kind: 'tip',
      title: 'Try it small first',
      text: 'Before you upload the full session, cut the first minute into its own clip and run it at a wide interval. Three or four key frames are enough to check that the engine reads the digits on your charger correctly.',
    },
    { kind: 'h2', text: 'Which engine' },
    {
      kind: 'p',
      text: 'Charger screens are digital, high-contrast and large, which is exactly what the Basic engine does well, at ten frames per credit. Choose Cloud AI, where your server offers it, when the display is small in the picture, filmed at a steep angle, or uses a seven-segment font; those fonts are where a server-side Tesseract engine is most likely to confuse an 8 with a 0 or drop a decimal point. Local runs in your browser at twenty frames per credit and keeps the video on your computer, but it reads English only and stops at 200 frames.',
    },
    { kind: 'h2', text: 'Turning the export into a curve' },
    {
      kind: 'p',
      text: 'In a spreadsheet, put the state of charge on the horizontal axis and power on the vertical one, and draw a scatter chart; plotting against state of charge rather than time lets you compare sessions that started at different levels. If you also want energy delivered, multiply each power reading by the interval in hours and add them up. A session at ten-second intervals gives a sum within a few percent of what the charger bills, which is a good check that nothing was misread.',
    },
    { kind: 'h2', text: 'Honest limits' },
    {
      kind: 'list',
      items: [
        'Screens that cycle between pages show each number only part of the time. Raise Allowable Disappearance in the tracking settings so the series survives the gaps, and expect empty cells where the value was not on screen.',
        'A misread digit shows up as a spike. Sort the column or look at the chart; the frame viewer shows you the exact frame so you can correct the value by hand.',
        'Timestamps are video time. If you paused the recording, the gap disappears from the timeline; record the session in one take.',
        'FrameText reads what the screen shows. Many chargers round power to whole kilowatts and update the percentage less often than the power, so the curve is only as fine as the display.',
      ],
    },
    {
      kind: 'p',
      text: 'Want to see the Numerical tab before you film anything? The [demo](/demo) opens a processed upload, with no account needed.',
    },
  ],
};
