import express from 'express';
import type { SettledUpload } from '@frametext/contracts';
import { BUILT_IN_SECRETS, listen, WorkloadCredentials, type RunningServer } from '@frametext/service-kit';
import { DELETED_UPLOADS_PATH, SETTLED_UPLOAD_PATH } from '../../src/data/upload-service-client.js';

/** The user a test access token was signed for (the stand-in trusts it; the real upload service verifies it). */
function userOf(authorization: string | undefined): string | undefined {
  const payload = authorization?.replace(/^Bearer /, '').split('.')[1];
  return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub : undefined;
}

/**
 * A stand-in for the upload service's internal routes that honours their contract: it takes results' workload token
 * only, and answers the settled uploads a test gives it to their owner alone (404 to anyone else, and for the rest);
 * asked to delete, it cancels the open uploads a test gave it and names the settled ones, for their owner only.
 */
export class FakeUploadService {
  private readonly settled = new Map<string, SettledUpload>();
  private readonly open = new Set<string>();
  /** The upload ids each deletion asked about, in order. */
  readonly deletionsAsked: string[][] = [];
  private readonly workloads = new WorkloadCredentials(BUILT_IN_SECRETS.SERVICE_TOKEN_SECRET, 'upload');
  /** When set, every call answers this status with a body that is not the contract's. */
  failWith: number | undefined;
  private server: RunningServer | undefined;

  get url(): string {
    return `http://127.0.0.1:${this.server!.port}`;
  }

  /** The upload service completed (or failed) `upload.uploadID` of `userId`. */
  settle(userId: string, upload: SettledUpload): void {
    this.settled.set(`${userId}/${upload.uploadID}`, upload);
  }

  /** `userId` started `uploadId` and never completed it. */
  startOpen(userId: string, uploadId: string): void {
    this.open.add(`${userId}/${uploadId}`);
  }

  private refused(req: express.Request, res: express.Response): boolean {
    try {
      this.workloads.verify(req.header('x-workload-token'), 'upload', ['results']);
      return false;
    } catch {
      res.status(401).json({ error: { code: 'auth/workload-refused', message: 'not results' } });
      return true;
    }
  }

  async start(): Promise<void> {
    const app = express();
    app.post(DELETED_UPLOADS_PATH, express.json(), (req, res) => {
      if (this.refused(req, res)) return;
      if (this.failWith) return void res.status(this.failWith).send('upload is having a bad day');
      const user = userOf(req.header('authorization'));
      const ids = (req.body as { uploadIds: string[] }).uploadIds;
      this.deletionsAsked.push(ids);
      const cancelled = ids.filter((id) => this.open.delete(`${user}/${id}`));
      const settled = ids.filter((id) => this.settled.get(`${user}/${id}`)?.status === 'uploaded');
      res.json({ cancelled, settled });
    });
    app.get(`${SETTLED_UPLOAD_PATH}:id`, (req, res) => {
      if (this.refused(req, res)) return;
      if (this.failWith) return void res.status(this.failWith).send('upload is having a bad day');
      const upload = this.settled.get(`${userOf(req.header('authorization'))}/${req.params.id}`);
      if (!upload) return void res.status(404).json({ error: { code: 'upload/not-settled', message: 'This user has no completed upload with this id.' } });
      res.json(upload);
    });
    this.server = await listen(app, 0, '127.0.0.1');
  }

  async stop(): Promise<void> {
    await this.server?.close();
  }
}
