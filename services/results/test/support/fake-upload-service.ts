import express from 'express';
import type { SettledUpload } from '@frametext/contracts';
import { BUILT_IN_SECRETS, listen, WorkloadCredentials, type RunningServer } from '@frametext/service-kit';
import { SETTLED_UPLOAD_PATH } from '../../src/data/upload-service-client.js';

/** The user a test access token was signed for (the stand-in trusts it; the real upload service verifies it). */
function userOf(authorization: string | undefined): string | undefined {
  const payload = authorization?.replace(/^Bearer /, '').split('.')[1];
  return payload ? (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: string }).sub : undefined;
}

/**
 * A stand-in for the upload service's internal route that honours its contract: it takes results' workload token
 * only, and answers the settled uploads a test gives it to their owner alone (404 to anyone else, and for the rest).
 */
export class FakeUploadService {
  private readonly settled = new Map<string, SettledUpload>();
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

  async start(): Promise<void> {
    const app = express();
    app.get(`${SETTLED_UPLOAD_PATH}:id`, (req, res) => {
      try {
        this.workloads.verify(req.header('x-workload-token'), 'upload', ['results']);
      } catch {
        return void res.status(401).json({ error: { code: 'auth/workload-refused', message: 'not results' } });
      }
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
