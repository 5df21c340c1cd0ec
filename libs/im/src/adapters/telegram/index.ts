export { TelegramAdapter, type TelegramAdapterOptions } from './telegram-adapter.js';
export { TelegramApiError, chunkText } from './telegram-api.js';
