import type { EventData, EventType } from '@frametext/contracts';
import { eventually, startTestService, type Answer, type ServiceUnderTest } from '@frametext/service-kit/testing';
import { configSchema, type ResultsConfig } from '../src/config.js';
import type { ResultsContext } from '../src/domain/context.js';
import { resultsService, type ResultsServiceOptions, type RunningResults } from '../src/service.js';
import { completed, detection, extracted, frameKey, newUploadId, ocr, thumbKey } from './fixtures.js';
import { FakeUploadService } from './support/fake-upload-service.js';

export interface Published {
  type: string;
  routingKey: string;
  data: Answer['body'];
}

export interface TestResults {
  service: ServiceUnderTest<ResultsConfig>;
  url: string;
  config: ResultsConfig;
  ctx: ResultsContext;
  db: ServiceUnderTest<ResultsConfig>['db'];
  /** What the upload service has settled, for checkUploadStatus before results hears of an upload. */
  uploadService: FakeUploadService;
  /** Publishes an event on the test exchange, as the other services would (a fresh message id each time). */
  publish<T extends EventType>(type: T, data: EventData<T>): Promise<string>;
  /** Publishes an event and waits until the service has handled it. */
  deliver<T extends EventType>(type: T, data: EventData<T>): Promise<void>;
  /** An upload of `user` with its source, frames and thumbnails stored and extracted, and `read` of its frames read (all: processed). */
  storedUpload(user: string, frames: number, read: number): Promise<string>;
  /** Events seen on the exchange since start, by the routing-key patterns given at start. */
  readonly published: Published[];
  /** GET, as `userId` (their access token) when given. */
  get(path: string, userId?: string): Promise<Answer>;
  post(path: string, body: unknown, userId?: string): Promise<Answer>;
  put(path: string, body: unknown, userId?: string): Promise<Answer>;
  /** Starts another replica on the same schema, queue and exchange. */
  replica(): Promise<RunningResults>;
  stop(): Promise<void>;
}

/** The results service in-process on a schema, queue and exchange of its own, with an fs store in a temp folder. */
export async function startResults(env: Record<string, string> = {}, opts: Pick<ResultsServiceOptions, 'makeDemoVideo' | 'resolveHost'> = {}, watch: string[] = ['upload.processed.v1']): Promise<TestResults> {
  let ctx: ResultsContext | undefined;
  const uploadService = new FakeUploadService();
  await uploadService.start();
  const service = await startTestService({
    role: 'results',
    configSchema,
    // The tests run the watchdog and the purge job themselves, at the moments they choose.
    env: { DEMO_SEED: 'false', WATCHDOG_INTERVAL_MS: '3600000', PURGE_INTERVAL_MS: '3600000', UPLOAD_URL: uploadService.url, ...env },
    watch,
    define: (config, t) =>
      resultsService(config, { name: t.name, dbSchema: t.schema, logger: t.logger, onContext: (c) => (ctx ??= c), makeDemoVideo: opts.makeDemoVideo, resolveHost: opts.resolveHost }),
  });

  const deliver = async <T extends EventType>(type: T, data: EventData<T>) => {
    await service.waitHandled((await service.publish(type, data)).id);
  };
  return {
    service,
    url: service.url,
    config: service.config,
    ctx: ctx!,
    db: service.db,
    uploadService,
    async publish(type, data) {
      return (await service.publish(type, data)).id;
    },
    deliver,
    async storedUpload(user, frames, read) {
      const id = newUploadId();
      const storage = ctx!.storage;
      await storage.put(`uploads/${id}/source/video.mp4`, Buffer.from('video'), { contentType: 'video/mp4' });
      for (let i = 0; i < frames; i += 1) {
        await storage.put(frameKey(id, i), Buffer.from(`frame ${i}`), { contentType: 'image/jpeg' });
        await storage.put(thumbKey(id, i), Buffer.from(`thumb ${i}`), { contentType: 'image/jpeg' });
      }
      await deliver('upload.completed.v1', completed(id, user, { maxFrames: frames }));
      await deliver('frames.extracted.v1', extracted(id, frames));
      for (let i = 0; i < read; i += 1) await deliver('ocr.completed.v1', ocr(id, i, [detection(`value ${i}`, 0)]));
      return id;
    },
    get published() {
      return service.watched.seen.map((s) => ({ type: s.envelope.type, routingKey: s.routingKey, data: s.envelope.data }));
    },
    get: (path, userId) => service.get(path, { user: userId }),
    post: (path, body, userId) => service.post(path, body, { user: userId }),
    put: (path, body, userId) => service.request('PUT', path, { body, user: userId }),
    replica: () => service.replica(),
    async stop() {
      await service.stop();
      await uploadService.stop();
    },
  };
}

export { eventually };
