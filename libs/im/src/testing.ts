export { FakeTelegramServer, type FakeSentMessage } from './adapters/telegram/fake-telegram-server.js';
export { FakeSlack, FAKE_BOT_USER_ID as FAKE_SLACK_BOT_USER_ID, type PostedMessage as FakeSlackPostedMessage } from './adapters/slack/testing/fake-slack.js';
export { FakeDiscord, FAKE_BOT_ID as FAKE_DISCORD_BOT_ID, type PostedMessage as FakeDiscordPostedMessage } from './adapters/discord/testing/fake-discord.js';
