export * from './access-tokens.js';
export * from './revocations.js';
export * from './workload.js';
export * from './requests.js';
export * from './api-token-scopes.js';
