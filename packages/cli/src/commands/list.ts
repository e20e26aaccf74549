import type { GetUploadsResponse } from '@frametext/contracts';
import type { CommandContext } from '../context.js';
import type { ListCommand } from '../options.js';

/** Columns padded to their widest cell; the last (the name) is left as is. */
export function table(rows: string[][]): string {
  const widths = rows[0]!.map((_, col) => Math.max(...rows.map((r) => r[col]!.length)));
  return rows.map((r) => r.map((cell, col) => (col === r.length - 1 ? cell : cell.padEnd(widths[col]!))).join('  ')).join('\n');
}

export async function listCommand(cmd: ListCommand, ctx: CommandContext): Promise<void> {
  const answer = await ctx.connect(cmd).json<GetUploadsResponse>('GET', '/getUploads');
  if (cmd.json) {
    ctx.stdout.write(`${JSON.stringify(answer, null, 2)}\n`);
    return;
  }
  const uploads = answer.data.uploads;
  if (uploads.length === 0) {
    ctx.stderr.write('No uploads yet. Start one with: frametext upload <file> --mode numerical\n');
    return;
  }
  const rows = uploads.map((u) => [u.id, u.status, u.mediaContent, new Date(u.uploadedAt).toISOString().slice(0, 16).replace('T', ' '), u.uploadName]);
  ctx.stdout.write(`${table([['ID', 'STATUS', 'MODE', 'UPLOADED (UTC)', 'NAME'], ...rows])}\n`);
}
