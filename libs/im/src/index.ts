export * from './adapter.js';
export * from './adapters/slack/index.js';
