import { formatBytes } from '@frametext/contracts/rules';
import type { GetUploadUrlResponse, UploadCompleteResponse } from '@frametext/contracts';
import type { CommandContext } from '../context.js';
import { ApiError } from '../errors.js';
import type { UploadCommand } from '../options.js';
import { ProgressLine } from '../progress.js';
import { planUpload } from '../upload-request.js';
import { waitUntilDone } from '../wait.js';
import { writeExport } from './export.js';

/**
 * The web app's upload, from a terminal: POST /getUploadURL, a PUT of each file to its address, POST /uploadComplete;
 * then, with --wait, the status until it is processed, and with --export, the export.
 */
export async function uploadCommand(cmd: UploadCommand, ctx: CommandContext): Promise<void> {
  const plan = await planUpload(cmd);
  const api = ctx.connect(cmd);
  const bytes = plan.files.reduce((sum, f) => sum + f.size, 0);
  const what = plan.files.length === 1 ? plan.files[0]!.path : `${plan.files.length} photos`;

  const answer = await api.json<GetUploadUrlResponse>('POST', '/getUploadURL', plan.body).catch((err: unknown) => {
    // The API names the engines as the app does (Cloud AI, Basic); say which flag that is.
    if (err instanceof ApiError && err.code === 'upload/engine-unavailable') throw new ApiError(err.status, err.code, `${err.message} (Basic is --engine server.)`);
    throw err;
  });
  const id = answer.uploadID;
  if (answer.framesRequested !== undefined && answer.maxFrames !== undefined && answer.maxFrames < answer.framesRequested) {
    ctx.stderr.write(`Your credits cover ${answer.maxFrames} of its ${answer.framesRequested} frames: only the first ${answer.maxFrames} will be read. Buy credits on the Account page to read them all.\n`);
  }
  ctx.onInterrupt(`Stopped before ${what} was sent: upload ${id} will not be processed, and the credits it holds come back when FrameText marks it abandoned. Run the command again to upload it.`);
  ctx.stderr.write(`Uploading ${what} (${formatBytes(bytes)}) as upload ${id}${answer.creditCost !== undefined ? `, ${answer.creditCost} credit${answer.creditCost === 1 ? '' : 's'}` : ''}\n`);
  for (const [i, file] of plan.files.entries()) await api.putFile(answer.urls[i]!, file.path, file.contentType);
  await api.json<UploadCompleteResponse>('POST', '/uploadComplete', { uploadID: id });

  if (!cmd.wait) {
    ctx.onInterrupt(undefined);
    ctx.stderr.write(`Uploaded. Follow it with: frametext status ${id} --wait\n`);
    ctx.stdout.write(`${id}\n`);
    return;
  }
  const exportHint = cmd.export ? `; then: frametext export ${id} --format ${cmd.export}${cmd.view ? ` --view ${cmd.view}` : ''}${cmd.out ? ` --out ${cmd.out}` : ''}` : '';
  ctx.onInterrupt(`Stopped following upload ${id}; it carries on. Pick up with: frametext status ${id} --wait${exportHint}`);
  const progress = new ProgressLine(ctx.stderr);
  await waitUntilDone(api, id, progress).finally(() => progress.end());
  ctx.onInterrupt(undefined);
  if (cmd.export) await writeExport(api, id, cmd.export, cmd.view, cmd.out, ctx);
  else ctx.stdout.write(`${id}\n`);
}
