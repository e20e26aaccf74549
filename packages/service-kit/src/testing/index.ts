// What tests of the services share: the test database and broker, unique names, a stand-in for identity's
// keys and feed, an exchange watcher and publisher, a trace collector's receiving end, and one way to start a service under test.
export * from './basics.js';
export * from './http.js';
export * from './tokens.js';
export * from './broker.js';
export * from './service.js';
export * from './otlp.js';
export * from './s3-server.js';
