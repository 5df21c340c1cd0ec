export * from './adapter.js';
export * from './authority/index.js';
export * from './config.js';
export * from './adapters/telegram/index.js';
export * from './bridge/index.js';
export * from './errors.js';
export * from './adapters/slack/index.js';
export * from './adapters/discord/index.js';
