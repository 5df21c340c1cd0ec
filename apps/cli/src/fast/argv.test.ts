import { describe, expect, it } from 'vitest';
import { parseFastArgv } from './argv.js';

const argv = (...args: string[]) => ['node', '/x/bin/cccc.js', ...args];

describe('parseFastArgv', () => {
  it('reads ping with and without --json', () => {
    expect(parseFastArgv(argv('ping'))).toEqual({ command: 'ping', json: false });
    expect(parseFastArgv(argv('ping', '--json'))).toEqual({ command: 'ping', json: true });
    expect(parseFastArgv(argv('ping', '--json', '--json'))).toEqual({ command: 'ping', json: true });
  });

  it('reads send with its defaults', () => {
    expect(parseFastArgv(argv('send', 'hello world'))).toEqual({ command: 'send', eventId: '', text: 'hello world', json: false, mode: 'send' });
  });

  it('reads every send option, as `--name value` or `--name=value`, before or after the text', () => {
    expect(parseFastArgv(argv('send', '--group', 'g_1', 'hi', '--by=peer1', '--to', 'a, b,', '--to=c', '--mode', 'request-reply', '--insight=why', '--json'))).toEqual({
      command: 'send',
      eventId: '',
      text: 'hi',
      group: 'g_1',
      by: 'peer1',
      to: ['a', 'b', 'c'],
      mode: 'request-reply',
      insight: 'why',
      json: true,
    });
  });

  it('keeps the last value of a repeated option and empty values as given', () => {
    expect(parseFastArgv(argv('send', 'hi', '--group', 'a', '--group=b', '--by=', '--to='))).toMatchObject({ group: 'b', by: '', to: [] });
  });

  it('reads reply: event id, text, and no default mode', () => {
    expect(parseFastArgv(argv('reply', 'ev1', 'thanks', '--mode=mail'))).toEqual({ command: 'reply', eventId: 'ev1', text: 'thanks', json: false, mode: 'mail' });
    expect(parseFastArgv(argv('reply', 'ev1', 'thanks'))).toEqual({ command: 'reply', eventId: 'ev1', text: 'thanks', json: false });
  });

  it('hands everything else to the full CLI', () => {
    const refused: string[][] = [
      [],
      ['hook', 'claude-state'],
      ['group', 'list'],
      ['ping', '--help'],
      ['ping', '-h'],
      ['ping', 'extra'],
      ['ping', '--group', 'g'],
      ['ping', '--json=1'],
      ['send'],
      ['send', 'a', 'b'],
      ['send', '--', '-dash text'],
      ['send', '-x'],
      ['send', 'hi', '--unknown'],
      ['send', 'hi', '--group'],
      ['send', 'hi', '--group', '--json'],
      ['send', 'hi', '--to', '-a'],
      ['send', 'hi', '--mode', 'loud'],
      ['send', 'hi', '--mode='],
      ['send', 'hi', '--json=yes'],
      ['send', '-'],
      ['reply', 'ev1'],
      ['reply', 'ev1', 'hi', '--mode', 'request-reply'],
      ['reply', 'ev1', 'a', 'b'],
    ];
    for (const args of refused) expect(parseFastArgv(argv(...args)), args.join(' ')).toBeNull();
  });
});
