export * from './adapter.js';
export * from './adapters/slack/index.js';
export * from './adapters/discord/index.js';
