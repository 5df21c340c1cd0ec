import { once } from 'node:events';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { fakeAgentScriptPath } from '@cccc/pty-runtime/testing';
import { useDaemonHome } from './e2e-harness.js';

const FAKE_AGENT = fakeAgentScriptPath();

const cli = useDaemonHome();

async function team(): Promise<string> {
  const { group_id } = await cli.json(['group', 'create', '--title', 'tail']);
  await cli.json(['use', group_id]);
  for (const id of ['lead', 'peer1']) await cli.json(['actor', 'add', id, '--runtime', 'custom', '--command', 'true']);
  return group_id;
}

describe('cccc tail (real daemon)', () => {
  it('prints the latest events, honours --limit and --kinds, and --json parses', async () => {
    await team();
    await cli.json(['send', 'first message', '--to', 'peer1']);
    await cli.json(['notify', 'a notice']);
    await cli.json(['send', 'last message', '--to', 'lead']);

    const tail = await cli.cccc(['tail']);
    expect(tail.code).toBe(0);
    expect(tail.stdout).toContain('user → peer1 (send)');
    expect(tail.stdout).toContain('a notice');
    // Oldest first; delivery records the daemon appends may follow the messages, so compare positions.
    expect(tail.stdout.indexOf('first message')).toBeLessThan(tail.stdout.indexOf('last message'));

    const chat = await cli.json(['tail', '--kinds', 'chat.message', '--limit', '5']);
    expect(chat.events.map((e: { data: { text: string } }) => e.data.text)).toEqual(['first message', 'last message']);
    const one = await cli.json(['tail', '-n', '1']);
    expect(one.events).toHaveLength(1);
    expect(one.has_more).toBe(true);
  });

  it('-f prints the tail, then follows new events until interrupted', async () => {
    await team();
    await cli.json(['send', 'before follow', '--to', 'peer1']);
    const follower = cli.spawn(['tail', '-f', '--kinds', 'chat.message']);
    await follower.waitFor('before follow');

    await cli.json(['notify', 'filtered out']);
    await cli.json(['send', 'live message', '--to', 'peer1,lead']);
    await follower.waitFor('live message');
    expect(follower.stdout).toContain('user → peer1,lead (send)');
    expect(follower.stdout).not.toContain('filtered out');
    expect(follower.stdout.match(/before follow/g)).toHaveLength(1);

    follower.child.kill('SIGINT');
    const [code] = await once(follower.child, 'exit');
    expect(code).toBe(0);
  });

  it('-f with a kind filter that matches nothing yet still catches the next matching event', async () => {
    await team();
    const follower = cli.spawn(['tail', '-f', '--kinds', 'system.notify']);
    await cli.json(['notify', 'first notice']);
    await follower.waitFor('first notice');
    expect(follower.stdout.trim().split('\n')).toHaveLength(1);
    follower.child.kill('SIGINT');
    expect((await once(follower.child, 'exit'))[0]).toBe(0);
  });

  it('-f: Ctrl-C while the past events print and the stream opens still exits 0', async () => {
    await team();
    for (let i = 0; i < 5; i++) await cli.json(['notify', `past notice ${i}`]);
    const follower = cli.spawn(['tail', '-f', '--kinds', 'system.notify']);
    // Interrupt the moment the first past event shows, before the live stream is necessarily open.
    await follower.waitFor('past notice 0');
    follower.child.kill('SIGINT');
    expect((await once(follower.child, 'exit'))[0]).toBe(0);
  });

  it('-f --json prints one parseable event per line', async () => {
    await team();
    const follower = cli.spawn(['tail', '-f', '--json']);
    await cli.json(['send', 'json line', '--to', 'peer1']);
    await follower.waitFor('json line');
    follower.child.kill('SIGTERM');
    await once(follower.child, 'exit');
    const events = follower.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(events.find((e) => e.kind === 'chat.message' && e.data.text === 'json line')).toMatchObject({ by: 'user', data: { to: ['peer1'] } });
  });

  it('hides actor.activity by default; --all and --kinds show it, also when following', async () => {
    // Live agents make the daemon append actor.activity as their working state changes.
    // Agents run in an attached scope; attach also makes the group active.
    const scope = join(cli.home(), 'scope');
    mkdirSync(scope);
    await cli.json(['attach', scope]);
    for (const id of ['lead', 'peer1']) await cli.json(['actor', 'add', id, '--runtime', 'custom', '--arg', process.execPath, '--arg', FAKE_AGENT]);
    const follower = cli.spawn(['tail', '-f', '--all']);
    const plainFollower = cli.spawn(['tail', '-f']);
    await cli.json(['group', 'start']);
    await cli.json(['send', 'after start', '--to', 'lead']);
    await until(async () => (await cli.json(['tail', '--kinds', 'actor.activity'])).events.length > 0);

    // Deliveries and their confirmations keep appending for a moment: compare a plain and an
    // --all page read with no event appended in between (the ledger's last id unchanged).
    type Page = { events: Array<{ id: string; kind: string }> };
    const lastId = (page: Page) => page.events.at(-1)?.id;
    let all: Page = { events: [] };
    let plain: Page = { events: [] };
    await until(async () => {
      all = await cli.json(['tail', '--all', '-n', '100']);
      plain = await cli.json(['tail', '-n', '100']);
      return lastId(await cli.json(['tail', '--all', '-n', '100'])) === lastId(all);
    });
    expect(all.events.some((e: { kind: string }) => e.kind === 'actor.activity')).toBe(true);
    expect(plain.events.map((e: { kind: string }) => e.kind)).not.toContain('actor.activity');
    expect(plain.events.length).toBe(all.events.filter((e: { kind: string }) => e.kind !== 'actor.activity').length);
    expect((await cli.cccc(['tail'])).stdout).not.toContain('actor.activity');
    // A short page is still filled with visible events from before the hidden ones.
    expect((await cli.json(['tail', '-n', '2'])).events.map((e: { kind: string }) => e.kind)).not.toContain('actor.activity');

    await follower.waitFor('actor.activity');
    await plainFollower.waitFor('after start');
    await cli.json(['notify', 'last word']);
    await plainFollower.waitFor('last word');
    expect(plainFollower.stdout).toContain('group.start');
    expect(plainFollower.stdout).not.toContain('actor.activity');
    for (const f of [follower, plainFollower]) {
      f.child.kill('SIGINT');
      expect((await once(f.child, 'exit'))[0]).toBe(0);
    }
  });
});

async function until(check: () => Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 100));
  }
}
