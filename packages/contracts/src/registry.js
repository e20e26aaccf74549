// The one list of FrameText's processes. Plain JavaScript, so that `npm start` (before anything is built) and the
// containers' health check read it as it is, and TypeScript sees its exact names (the const assertion below).
// name: folder under services/, queue, compose service and Kubernetes Deployment; port: default port (PORT
// overrides it); schema: the Postgres schema it owns (null: no database); consumes / publishes: its events.
// Order: start order of `npm start` and /api/health's order, the gateway last. test/registry.test.ts checks the
// services, compose, Kubernetes and docs/architecture.md against it.
export const SERVICES = /** @type {const} */ ([
  { name: 'identity', port: 8101, schema: 'identity', consumes: [], publishes: ['user.created.v1', 'user.email-confirmed.v1', 'user.deleted.v1'] },
  { name: 'upload', port: 8102, schema: 'upload', consumes: ['upload.deleted.v1', 'user.deleted.v1'], publishes: ['upload.completed.v1', 'upload.failed.v1', 'upload.cancelled.v1'] },
  { name: 'frame-extraction', port: 8103, schema: 'frame_extraction', consumes: ['upload.completed.v1', 'upload.deleted.v1'], publishes: ['frames.extracted.v1', 'ocr.requested.v1', 'upload.failed.v1'] },
  { name: 'ocr-tesseract', port: 8104, schema: 'ocr_tesseract', consumes: ['ocr.requested.v1', 'upload.deleted.v1'], publishes: ['ocr.completed.v1'] },
  { name: 'ocr-cloud', port: 8105, schema: 'ocr_cloud', consumes: ['ocr.requested.v1', 'upload.deleted.v1'], publishes: ['ocr.completed.v1', 'upload.failed.v1'] },
  { name: 'billing', port: 8106, schema: 'billing', consumes: ['user.created.v1', 'user.email-confirmed.v1', 'user.deleted.v1', 'upload.completed.v1', 'upload.processed.v1', 'upload.failed.v1', 'upload.cancelled.v1', 'upload.deleted.v1'], publishes: [] },
  { name: 'results', port: 8107, schema: 'results', consumes: ['upload.completed.v1', 'frames.extracted.v1', 'ocr.completed.v1', 'upload.failed.v1', 'user.deleted.v1'], publishes: ['upload.processed.v1', 'upload.completed.v1', 'upload.failed.v1', 'upload.deleted.v1'] },
  { name: 'gateway', port: 8080, schema: null, consumes: [], publishes: [] },
]);
