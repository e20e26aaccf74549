export * from './envelope.js';
export * from './events.js';
export * from './common.js';
export * from './uploads.js';
export * from './results.js';
export * from './billing.js';
export * from './identity.js';
export * from './services.js';
