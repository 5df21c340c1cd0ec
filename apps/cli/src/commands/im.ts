import { Option, type Command } from 'commander';
import type { OpArgsInput, OpResult } from '@cccc/ipc-protocol';
import { cliError, CliErrorCodes } from '../cli-error.js';
import { groupContext, guarded, withGroupOptions, type GroupOptions } from '../context.js';
import { printJson, printLines } from '../output.js';

// `cccc im`: a group's IM bridge (§8.16): pending one-time keys, bind/reject, authorized chats,
// revoke, and the bridge configuration (tokens are write-only and never printed).

interface RevokeOptions extends GroupOptions {
  thread?: string;
}

interface ConfigOptions extends GroupOptions {
  platform?: 'telegram' | 'slack' | 'discord';
  tokenEnv?: string;
  appTokenEnv?: string;
  enable?: boolean;
  disable?: boolean;
  forwardPublicNotify?: boolean;
}

/** A thread id as typed: digits are the platform's number, anything else stays an opaque string. */
function threadArg(text: string | undefined): number | string {
  if (text === undefined || text === '') return 0;
  return /^-?\d+$/.test(text) && Number.isSafeInteger(Number(text)) ? Number(text) : text;
}

const target = (c: { chat_id: unknown; thread_id?: unknown }) =>
  c.thread_id === undefined || c.thread_id === 0 ? String(c.chat_id) : `${String(c.chat_id)} (thread ${String(c.thread_id)})`;

function configLines(im: OpResult<'im_config_get'>['im']): string[] {
  if (!im) return ['IM not configured'];
  return [
    `platform: ${im.platform}`,
    `enabled: ${im.enabled}`,
    `forward public notifications: ${im.forward_public_notify}`,
    `bot token: ${im.bot_token_present ? 'stored' : 'missing'}`,
    ...(im.platform === 'slack' ? [`app token: ${im.app_token_present ? 'stored' : 'missing'}`] : []),
  ];
}

/** Tokens come from an environment variable, never from argv (argv is visible to every local user). */
function tokenFrom(name: string | undefined, flag: string): string | undefined {
  if (name === undefined) return undefined;
  const value = process.env[name];
  if (value === undefined) throw cliError(CliErrorCodes.invalidRequest, `${flag}: environment variable ${name} is not set`, { field: flag });
  return value.trim();
}

export function registerImCommands(program: Command, setExit: (code: number) => void): void {
  const im = program.command('im').description("a group's IM bridge: pending keys, bind, authorized chats, revoke, configuration");

  withGroupOptions(im.command('pending').description('list pending one-time bind keys')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('im_list_pending', { group_id: ctx.groupId, by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines(result.pending.length === 0 ? ['no pending keys'] : result.pending.map((p) => `${p.key}  ${p.platform}  ${target(p)}  expires in ${p.expires_in_seconds}s`));
    }),
  );

  withGroupOptions(im.command('bind <key>').description('authorize the chat that was given this key (and subscribe it)')).action(
    guarded(setExit, async (key: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('im_bind_chat', { group_id: ctx.groupId, by: ctx.by, key });
      if (ctx.json) return printJson(result);
      printLines([`bound ${result.platform} chat ${target(result)}`]);
    }),
  );

  withGroupOptions(im.command('reject <key>').description('reject a pending bind key')).action(
    guarded(setExit, async (key: string, opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('im_reject_pending', { group_id: ctx.groupId, by: ctx.by, key });
      if (ctx.json) return printJson(result);
      printLines([result.rejected ? `rejected ${key}` : `no pending key ${key}`]);
    }),
  );

  withGroupOptions(im.command('list').description('list authorized chats')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('im_list_authorized', { group_id: ctx.groupId, by: ctx.by });
      if (ctx.json) return printJson(result);
      printLines(result.authorized.length === 0 ? ['no authorized chats'] : result.authorized.map((a) => `${String(a['platform'] ?? '')}  ${target(a as { chat_id: unknown; thread_id?: unknown })}`));
    }),
  );

  withGroupOptions(im.command('revoke <chat_id>').description('revoke an authorized chat (and its subscription)'))
    .option('--thread <thread_id>', 'the thread/topic id (default: no thread)')
    .action(
      guarded(setExit, async (chatId: string, opts: RevokeOptions) => {
        const ctx = groupContext(opts);
        const result = await ctx.client.call('im_revoke_chat', { group_id: ctx.groupId, by: ctx.by, chat_id: chatId, thread_id: threadArg(opts.thread) });
        if (ctx.json) return printJson(result);
        printLines([result.revoked ? `revoked ${chatId}` : `${chatId} was not authorized`]);
      }),
    );

  withGroupOptions(im.command('config').description('show or change the IM bridge configuration'))
    .addOption(new Option('--platform <platform>', 'IM platform').choices(['telegram', 'slack', 'discord']))
    .option('--token-env <VAR>', 'read the bot token from this environment variable')
    .option('--app-token-env <VAR>', 'read the Slack app-level token from this environment variable')
    .option('--enable', 'run the bridge (while the group runs)')
    .option('--disable', 'stop the bridge')
    .option('--forward-public-notify', 'also post public system notifications')
    .option('--no-forward-public-notify', 'post only messages addressed to the user')
    .action(
      guarded(setExit, async (opts: ConfigOptions) => {
        const ctx = groupContext(opts);
        const args: OpArgsInput<'im_config_set'> = { group_id: ctx.groupId, by: ctx.by };
        if (opts.platform) args.platform = opts.platform;
        const bot = tokenFrom(opts.tokenEnv, '--token-env');
        if (bot !== undefined) args.bot_token = bot;
        const app = tokenFrom(opts.appTokenEnv, '--app-token-env');
        if (app !== undefined) args.app_token = app;
        if (opts.enable && opts.disable) throw cliError(CliErrorCodes.invalidRequest, '--enable and --disable exclude each other', { field: 'enable' });
        if (opts.enable) args.enabled = true;
        if (opts.disable) args.enabled = false;
        if (opts.forwardPublicNotify !== undefined) args.forward_public_notify = opts.forwardPublicNotify;
        const changes = Object.keys(args).length > 2;
        const result = changes ? await ctx.client.call('im_config_set', args) : await ctx.client.call('im_config_get', { group_id: ctx.groupId, by: ctx.by });
        if (ctx.json) return printJson(result);
        printLines(configLines(result.im));
      }),
    );

  withGroupOptions(im.command('unset').description('remove the IM configuration, its tokens and every authorization')).action(
    guarded(setExit, async (opts: GroupOptions) => {
      const ctx = groupContext(opts);
      const result = await ctx.client.call('im_config_set', { group_id: ctx.groupId, by: ctx.by, unset: true });
      if (ctx.json) return printJson(result);
      printLines(['IM configuration removed']);
    }),
  );
}
