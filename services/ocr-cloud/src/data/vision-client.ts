import vision from '@google-cloud/vision';
import type { AuthClient } from 'google-auth-library';
import type { VisionAnnotator } from '../domain/vision-batcher.js';
import type { VisionImageResponse } from '../domain/vision-text.js';

export interface VisionClient {
  annotate: VisionAnnotator;
  close(): Promise<void>;
}

/**
 * The Cloud Vision client (@google-cloud/vision), on its REST transport: the same path in tests (a local fake of
 * `POST /v1/images:annotate`) as against Google, and plain HTTPS through any egress proxy. The library's own
 * retries are off: VisionBatcher retries with our rules and knows which images of a batch failed.
 * The port is passed on its own: a port inside apiEndpoint is overridden by the default one.
 */
export function visionClient(opts: { apiUrl: string; authClient: AuthClient; timeoutMs: number }): VisionClient {
  const url = new URL(opts.apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  const client = new vision.ImageAnnotatorClient({
    apiEndpoint: url.hostname,
    port: url.port ? Number(url.port) : protocol === 'http' ? 80 : 443,
    protocol,
    fallback: 'rest',
    authClient: opts.authClient,
  });
  return {
    async annotate(images) {
      const [answer] = await client.batchAnnotateImages(
        { requests: images.map((content) => ({ image: { content }, features: [{ type: 'DOCUMENT_TEXT_DETECTION' }] })) },
        { timeout: opts.timeoutMs, maxRetries: 0 },
      );
      return (answer.responses ?? []) as VisionImageResponse[];
    },
    close: () => client.close(),
  };
}
