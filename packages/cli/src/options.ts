import { parseArgs, type ParseArgsConfig } from 'node:util';
import { DEFAULT_MEDIA_CONTENT, FRAME_INTERVALS, MEDIA_CONTENTS, SORT_PREFERENCES, SERVER_ENGINES, type MediaContent, type ServerEngine, type SortPreference } from '@frametext/contracts/rules';
import { LANGUAGES } from '@frametext/contracts/languages';
import { EXPORT_FORMATS, KEPT_WORK_VIEWS, VIEW_EXPORT_FORMATS, VIEW_OF_MEDIA_CONTENT, type ExportFormat, type KeptWorkView } from '@frametext/contracts';
import { UsageError } from './errors.js';
import { COMMANDS, type CommandName } from './help.js';

/*
 * The command line, read into one typed command with node's util.parseArgs. Everything that can be checked
 * without the network is checked here, so a mistake costs no request and is reported with exit 2 and the flag to fix.
 */

export type { ExportFormat };
/** A results view (the export endpoint's `view`); the Region view reads uploads made in the captions mode. */
export type View = KeptWorkView;

/** A format the view does not offer is a usage mistake when the view is known before any request. */
function checkOffered(view: View, format: ExportFormat, command: CommandName): void {
  const offered: readonly ExportFormat[] = VIEW_EXPORT_FORMATS[view];
  if (!offered.includes(format)) throw new UsageError(`the ${view} view exports ${offered.join(', ')}, not ${format}`, command);
}

export interface Connection {
  /** --url, when given (else FRAMETEXT_URL, else the default). */
  url?: string;
  /** --token, when given (else FRAMETEXT_TOKEN). */
  token?: string;
}

export interface UploadCommand extends Connection {
  command: 'upload';
  files: string[];
  mode: MediaContent;
  /** Seconds between a video's frames; undefined leaves the API's default. */
  interval?: number;
  engine?: ServerEngine;
  /** A code of the language list (`originalLanguage`). */
  language?: string;
  translateTo?: string;
  name?: string;
  sort?: SortPreference;
  slideDetection?: false;
  wait: boolean;
  export?: ExportFormat;
  view?: View;
  out?: string;
}

export interface StatusCommand extends Connection {
  command: 'status';
  uploadId: string;
  wait: boolean;
  json: boolean;
}

export interface ExportCommand extends Connection {
  command: 'export';
  uploadId: string;
  format: ExportFormat;
  view?: View;
  out?: string;
}

export interface ListCommand extends Connection {
  command: 'list';
  json: boolean;
}

export interface HelpCommand {
  command: 'help';
  topic?: CommandName;
}

export type Command = UploadCommand | StatusCommand | ExportCommand | ListCommand | HelpCommand;

type Options = NonNullable<ParseArgsConfig['options']>;

const CONNECTION_OPTIONS: Options = { url: { type: 'string' }, token: { type: 'string' }, help: { type: 'boolean', short: 'h' } };

const COMMAND_OPTIONS: Record<CommandName, Options> = {
  upload: {
    mode: { type: 'string' },
    interval: { type: 'string' },
    engine: { type: 'string' },
    language: { type: 'string' },
    'translate-to': { type: 'string' },
    name: { type: 'string' },
    sort: { type: 'string' },
    'no-slide-detection': { type: 'boolean' },
    wait: { type: 'boolean' },
    export: { type: 'string' },
    view: { type: 'string' },
    out: { type: 'string', short: 'o' },
  },
  status: { wait: { type: 'boolean' }, json: { type: 'boolean' } },
  export: { format: { type: 'string' }, view: { type: 'string' }, out: { type: 'string', short: 'o' } },
  list: { json: { type: 'boolean' } },
};

/** `--mode` takes the API's names and the results view's name for captions. */
const MODE_ALIASES = new Map<string, MediaContent>([['region', 'captions']]);

/** `value` if it is one of `allowed`; else a usage error listing them (and `alias`, another accepted spelling). */
function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[], command: CommandName, alias?: string): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`--${flag} must be one of ${[...allowed, ...(alias ? [alias] : [])].join(', ')} (got "${value}")`, command);
}

/** A language of the list by its code (en), Tesseract model (eng) or name (English), as its code. */
export function languageCode(flag: string, value: string, command: CommandName): string {
  const wanted = value.trim().toLowerCase();
  const found = LANGUAGES.find((l) => l.code.toLowerCase() === wanted) ?? LANGUAGES.find((l) => l.tesseract === wanted || l.label.toLowerCase() === wanted);
  if (found) return found.code;
  throw new UsageError(`--${flag} "${value}" is not a language FrameText reads: give a code such as en, de or zh-TW (or eng, or English)`, command);
}

function parseInterval(value: string): number {
  const seconds = Number(value);
  if (!(FRAME_INTERVALS as readonly number[]).includes(seconds)) {
    throw new UsageError(`--interval must be one of ${FRAME_INTERVALS.join(', ')} seconds (got "${value}")`, 'upload');
  }
  return seconds;
}

/** parseArgs' own messages name the option but suggest `--` tricks; ours say what the command takes. */
function parseFailure(err: unknown, command: CommandName | undefined): UsageError {
  const { code, message } = err as { code?: string; message?: string };
  const where = command ?? 'frametext';
  const quoted = /'([^']+)'/.exec(message ?? '')?.[1] ?? '';
  const option = /--[\w-]+/.exec(quoted)?.[0] ?? quoted;
  if (code === 'ERR_PARSE_ARGS_UNKNOWN_OPTION') return new UsageError(`${where} has no option ${option}`, command);
  if (code === 'ERR_PARSE_ARGS_INVALID_OPTION_VALUE') {
    return new UsageError(/missing|ambiguous/.test(message ?? '') ? `${option} needs a value` : `${option} takes no value`, command);
  }
  if (code === 'ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL') return new UsageError(`${where} takes no argument ${quoted}`, command);
  return new UsageError(message ?? String(err), command);
}

function connection(values: Record<string, unknown>): Connection {
  return { ...(values.url !== undefined ? { url: values.url as string } : {}), ...(values.token !== undefined ? { token: values.token as string } : {}) };
}

function oneUploadId(positionals: string[], command: 'status' | 'export'): string {
  if (positionals.length === 0) throw new UsageError(`${command} needs an upload id (frametext list shows them)`, command);
  if (positionals.length > 1) throw new UsageError(`${command} takes one upload id, got ${positionals.length}: ${positionals.join(' ')}`, command);
  return positionals[0]!;
}

/** Reads argv (without node and the script) into a command, or throws a UsageError saying what to fix. */
export function parseCommand(argv: readonly string[]): Command {
  const first = argv[0];
  if (first === undefined) throw new UsageError('no command given: upload, status, export or list');
  if (first === '--help' || first === '-h' || first === 'help') {
    const topic = argv[1];
    return { command: 'help', ...(topic && (COMMANDS as readonly string[]).includes(topic) ? { topic: topic as CommandName } : {}) };
  }
  if (!(COMMANDS as readonly string[]).includes(first)) {
    throw new UsageError(first.startsWith('-') ? `the command comes first: frametext upload|status|export|list ${first} ...` : `unknown command "${first}": use upload, status, export or list`);
  }
  const command = first as CommandName;
  const rest = argv.slice(1);
  if (rest.includes('--help') || rest.includes('-h')) return { command: 'help', topic: command };

  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args: [...rest], options: { ...CONNECTION_OPTIONS, ...COMMAND_OPTIONS[command] }, allowPositionals: true, strict: true });
  } catch (err) {
    throw parseFailure(err, command);
  }
  const { values, positionals } = parsed;
  const str = (key: string) => values[key] as string | undefined;

  switch (command) {
    case 'upload': {
      if (positionals.length === 0) throw new UsageError('upload needs a file: one video (.mp4, .mov) or one or more photos (.png, .jpg)', command);
      const modeName = str('mode');
      const format = str('export');
      const view = str('view');
      const out = str('out');
      if (view !== undefined && format === undefined) throw new UsageError('--view chooses what --export writes; add --export FORMAT', command);
      if (out !== undefined && format === undefined) throw new UsageError('--out is where --export writes; add --export FORMAT', command);
      const mode = (modeName === undefined ? DEFAULT_MEDIA_CONTENT : (MODE_ALIASES.get(modeName) ?? oneOf('mode', modeName, MEDIA_CONTENTS, command, 'region'))) as MediaContent;
      const translateTo = str('translate-to');
      if (translateTo !== undefined && mode !== 'captions') throw new UsageError('--translate-to is for --mode region (captions)', command);
      if (values['no-slide-detection'] && mode !== 'presentation') throw new UsageError('--no-slide-detection is for --mode presentation', command);
      const exportFormat = format === undefined ? undefined : oneOf('export', format, EXPORT_FORMATS, command);
      const exportView = view === undefined ? undefined : oneOf('view', view, KEPT_WORK_VIEWS, command);
      // Checked before uploading: the upload would be read for nothing.
      if (exportFormat) checkOffered(exportView ?? VIEW_OF_MEDIA_CONTENT[mode], exportFormat, command);
      const engine = str('engine');
      const sort = str('sort');
      const interval = str('interval');
      const language = str('language');
      return {
        command,
        ...connection(values),
        files: positionals,
        mode,
        ...(interval !== undefined ? { interval: parseInterval(interval) } : {}),
        ...(engine !== undefined ? { engine: oneOf('engine', engine, SERVER_ENGINES, command) } : {}),
        ...(language !== undefined ? { language: languageCode('language', language, command) } : {}),
        ...(translateTo !== undefined ? { translateTo: languageCode('translate-to', translateTo, command) } : {}),
        ...(str('name') !== undefined ? { name: str('name')! } : {}),
        ...(sort !== undefined ? { sort: oneOf('sort', sort, SORT_PREFERENCES, command) } : {}),
        ...(values['no-slide-detection'] ? { slideDetection: false as const } : {}),
        wait: Boolean(values.wait) || format !== undefined,
        ...(exportFormat ? { export: exportFormat } : {}),
        ...(exportView ? { view: exportView } : {}),
        ...(out !== undefined ? { out } : {}),
      };
    }
    case 'status':
      return { command, ...connection(values), uploadId: oneUploadId(positionals, command), wait: Boolean(values.wait), json: Boolean(values.json) };
    case 'export': {
      const uploadId = oneUploadId(positionals, command);
      const format = str('format');
      if (format === undefined) throw new UsageError(`export needs --format: ${EXPORT_FORMATS.join(', ')}`, command);
      const view = str('view') === undefined ? undefined : oneOf('view', str('view')!, KEPT_WORK_VIEWS, command);
      const out = str('out');
      const checked = oneOf('format', format, EXPORT_FORMATS, command);
      if (view) checkOffered(view, checked, command);
      return {
        command,
        ...connection(values),
        uploadId,
        format: checked,
        ...(view ? { view } : {}),
        ...(out !== undefined ? { out } : {}),
      };
    }
    case 'list':
      if (positionals.length > 0) throw new UsageError(`list takes no argument (got ${positionals.join(' ')})`, command);
      return { command, ...connection(values), json: Boolean(values.json) };
  }
}
