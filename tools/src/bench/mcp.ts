import { createRequire } from 'node:module';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { DaemonClient } from '@cccc/ipc-protocol/node';
import { startBenchDaemon } from './ping.js';
import { fmt, printTable, summarize } from './stats.js';

const require = createRequire(import.meta.url);

async function timeCalls(n: number, fn: () => Promise<unknown>): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await fn();
    out.push(performance.now() - t);
  }
  return out;
}

/**
 * A tool call through the real `cccc mcp` process (SDK client over stdio → tool → IPC → daemon
 * → back), beside the same op and a bare `ping` over IPC from this process, interleaved.
 */
export async function benchMcp(calls = 500): Promise<void> {
  const daemon = await startBenchDaemon();
  const ipc = new DaemonClient({ home: daemon.home });
  const { group_id } = await ipc.call('group_create', { title: 'bench', by: 'user' });
  await ipc.call('actor_add', { group_id, actor_id: 'lead', runtime: 'custom', command: ['true'], by: 'user' });
  const { CCCC_ACTOR_ID: _drop, ...env } = process.env as Record<string, string>;
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [require.resolve('@cccc/cli/bin/cccc.js'), 'mcp'],
    env: { ...env, CCCC_HOME: daemon.home, CCCC_GROUP_ID: group_id, CCCC_ACTOR_ID: 'lead' },
  });
  const client = new Client({ name: 'bench', version: '1.0.0' });
  try {
    const t0 = performance.now();
    await client.connect(transport);
    const startup = performance.now() - t0;
    const tool = () => client.callTool({ name: 'cccc_message_history', arguments: { limit: 1 } });
    const op = () => ipc.call('message_history', { group_id, actor_id: 'lead', by: 'lead', limit: 1 });
    const ping = () => ipc.call('ping', {});
    const first = await tool();
    if (first.isError) throw new Error(`cccc_message_history failed: ${JSON.stringify(first.structuredContent)}`);
    await timeCalls(50, tool);
    await timeCalls(50, op);
    const t: number[] = [];
    const o: number[] = [];
    const p: number[] = [];
    const block = 50;
    for (let done = 0; done < calls; done += block) {
      t.push(...(await timeCalls(block, tool)));
      o.push(...(await timeCalls(block, op)));
      p.push(...(await timeCalls(block, ping)));
    }
    const [ts, os, ps] = [summarize(t), summarize(o), summarize(p)];
    printTable(`MCP tool round trip (${calls} calls each, interleaved blocks of ${block}; server startup to initialized ${fmt(startup)})`, [
      { path: 'ping over IPC (DaemonClient, baseline)', p50: fmt(ps.p50), p99: fmt(ps.p99), mean: fmt(ps.mean) },
      { path: 'message_history over IPC (DaemonClient)', p50: fmt(os.p50), p99: fmt(os.p99), mean: fmt(os.mean) },
      { path: 'cccc_message_history via cccc mcp (stdio → IPC → daemon)', p50: fmt(ts.p50), p99: fmt(ts.p99), mean: fmt(ts.mean) },
    ]);
    console.log(`mcp tool p50: ${fmt(ts.p50)} (target <= 5 ms); MCP layer adds ${fmt(ts.p50 - os.p50)} over the bare op`);
  } finally {
    await client.close().catch(() => undefined);
    await daemon.stop();
  }
}
