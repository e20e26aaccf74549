import { FRAME_INTERVALS, DEFAULT_FRAME_INTERVAL } from '@frametext/contracts/rules';
import { VIEW_EXPORT_FORMATS } from '@frametext/contracts';

/** The help of `frametext` and of each command: what `--help` prints, and what a usage error points to. */

export const COMMANDS = ['upload', 'status', 'export', 'list'] as const;
export type CommandName = (typeof COMMANDS)[number];

const FORMATS_BY_VIEW = Object.entries(VIEW_EXPORT_FORMATS)
  .map(([view, formats]) => `${view} ${formats.join(', ')}`)
  .join('; ');

const CONNECTION = `Connection (every command):
  --url URL        FrameText's address (default: $FRAMETEXT_URL, else http://localhost:8080)
  --token TOKEN    a personal API token (default: $FRAMETEXT_TOKEN, which keeps it out of your shell history)
                   Create one on the Account page, under API tokens: scope "read" for status, list and
                   export, "upload" to upload too.`;

const GENERAL = `frametext: read text and numbers from videos and photos with FrameText, from a terminal.

Usage:
  frametext upload <file...> [options]     upload a video or photos; --wait to follow it, --export to fetch it
  frametext status <uploadId> [--wait]     an upload's status and progress
  frametext export <uploadId> --format F   write an upload's results as csv, txt, srt, vtt or json
  frametext list                           your uploads, newest first
  frametext <command> --help               the options of a command

${CONNECTION}

Exit codes: 0 done, 1 FrameText refused or the upload failed (its message is printed), 2 the command line
needs fixing, 130 stopped with Ctrl-C.

Example:
  export FRAMETEXT_TOKEN=ftpat_...
  frametext upload charger.mp4 --mode numerical --interval 1 --engine server --wait --export csv --out charger.csv
`;

const UPLOAD = `Usage: frametext upload <file...> [options]

Uploads one video (.mp4, .mov) or a series of photos (.png, .jpg, .jpeg; all of one type), as the web app's
upload page does, and prints the upload's id.

Options:
  --mode MODE             what to read: numerical (default), presentation, region (captions) or scroll
  --interval SECONDS      a video's time between frames: one of ${FRAME_INTERVALS.join(', ')}
                          (default ${DEFAULT_FRAME_INTERVAL})
  --engine ENGINE         cloud (Cloud AI, 1 credit a frame; the default) or server (Basic, 10 frames a credit)
  --language LANG         the language on screen: a code (en, de, zh-TW), a Tesseract name (eng) or a name
                          (English); default: detect
  --translate-to LANG     region mode: translate the text into this language
  --name NAME             the upload's name (default: the first file's name)
  --sort name|timestamp   photos: order by file name (default) or by time taken
  --no-slide-detection    presentation mode: read every frame at --interval instead of each new slide once
  --wait                  follow the upload until it is processed or failed, showing its progress
  --export FORMAT         then write its results (implies --wait), as the view offers:
                          ${FORMATS_BY_VIEW}
  --view VIEW             the results view to export from: presentation, numerical, region or scroll
                          (default: the upload's mode)
  --out FILE              write the export to FILE instead of standard output (to a folder: under the
                          file name FrameText gives, such as charger-results.csv)

${CONNECTION}

Example:
  frametext upload charger.mp4 --mode numerical --interval 1 --wait --export csv --out charger.csv
`;

const STATUS = `Usage: frametext status <uploadId> [--wait] [--json]

Prints an upload's status (uploading, uploaded, processing, processed or failed), its frames read so far and,
while it waits its turn, how many uploads are ahead of it.

Options:
  --wait    follow it until it is processed or failed (Ctrl-C stops following; the upload carries on)
  --json    print the API's answer as JSON instead

${CONNECTION}
`;

const EXPORT = `Usage: frametext export <uploadId> --format FORMAT [--view VIEW] [--out FILE]

Writes a processed upload's results, as the results page's export buttons do.

Options:
  --format FORMAT   csv, txt, srt, vtt or json, as the view offers:
                    ${FORMATS_BY_VIEW}
  --view VIEW       presentation, numerical, region or scroll (default: the upload's mode)
  --out FILE        write to FILE instead of standard output (to a folder: under the file name
                    FrameText gives, such as charger-results.csv)

${CONNECTION}
`;

const LIST = `Usage: frametext list [--json]

Lists your uploads, newest first: id, status, mode, when, name.

Options:
  --json    print the API's answer as JSON instead

${CONNECTION}
`;

export function helpText(command?: CommandName): string {
  switch (command) {
    case 'upload':
      return UPLOAD;
    case 'status':
      return STATUS;
    case 'export':
      return EXPORT;
    case 'list':
      return LIST;
    default:
      return GENERAL;
  }
}
