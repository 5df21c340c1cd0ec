export { FakeTelegramServer, type FakeSentMessage } from './adapters/telegram/fake-telegram-server.js';
