import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FrameTextApi } from '../api.js';
import type { CommandContext } from '../context.js';
import { ApiError, CliError } from '../errors.js';
import type { ExportCommand, ExportFormat, View } from '../options.js';

/** The file name the server gives in Content-Disposition (filename*=UTF-8'' first, then filename=). */
export function dispositionFileName(header: string | null): string | undefined {
  if (!header) return undefined;
  const extended = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (extended) {
    try {
      return decodeURIComponent(extended.trim());
    } catch {
      /* fall back to the plain name */
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1]?.trim();
}

/** A file name the server sent, kept to its last path part. */
const safeName = (name: string) => name.split(/[/\\]/).pop()!.replace(/^\.+/, '') || 'export';

/**
 * Fetches an upload's export (GET /api/uploads/:id/export?format=&view=) and writes it to `out` (a file, or a folder
 * to hold the server's file name) or, without `out`, to standard output.
 */
export async function writeExport(api: FrameTextApi, uploadId: string, format: ExportFormat, view: View | undefined, out: string | undefined, ctx: CommandContext): Promise<void> {
  const query = new URLSearchParams({ format, ...(view ? { view } : {}) });
  let res: Response;
  try {
    res = await api.request('GET', `/uploads/${encodeURIComponent(uploadId)}/export?${query}`);
  } catch (err) {
    if (err instanceof ApiError && err.status === 409) throw new CliError(`${err.message} (frametext status ${uploadId} --wait follows it until it is done)`);
    throw err;
  }
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (out === undefined) {
    ctx.stdout.write(bytes);
    return;
  }
  const isFolder = await stat(out).then((s) => s.isDirectory(), () => false);
  const target = isFolder ? join(out, safeName(dispositionFileName(res.headers.get('content-disposition')) ?? `${uploadId}.${format}`)) : out;
  await writeFile(target, bytes).catch((err: NodeJS.ErrnoException) => {
    throw new CliError(`cannot write ${target}: ${err.code === 'ENOENT' ? 'its folder does not exist' : err.message}`);
  });
  ctx.stderr.write(`Wrote ${target} (${bytes.length} bytes)\n`);
}

export async function exportCommand(cmd: ExportCommand, ctx: CommandContext): Promise<void> {
  await writeExport(ctx.connect(cmd), cmd.uploadId, cmd.format, cmd.view, cmd.out, ctx);
}
