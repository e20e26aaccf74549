import type { CommandContext } from '../context.js';
import type { StatusCommand } from '../options.js';
import { describeStatus, ProgressLine, type UploadStatus } from '../progress.js';
import { fetchStatus, waitUntilDone } from '../wait.js';

export async function statusCommand(cmd: StatusCommand, ctx: CommandContext): Promise<void> {
  const api = ctx.connect(cmd);
  let status: UploadStatus;
  if (cmd.wait) {
    ctx.onInterrupt(`Stopped following upload ${cmd.uploadId}; it carries on. See where it is with: frametext status ${cmd.uploadId} --wait`);
    const progress = new ProgressLine(ctx.stderr);
    status = await waitUntilDone(api, cmd.uploadId, progress).finally(() => progress.end());
    ctx.onInterrupt(undefined);
  } else {
    status = await fetchStatus(api, cmd.uploadId);
  }
  ctx.stdout.write(cmd.json ? `${JSON.stringify({ data: status }, null, 2)}\n` : `${cmd.uploadId}  ${describeStatus(status)}\n`);
}
