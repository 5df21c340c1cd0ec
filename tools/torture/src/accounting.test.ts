import { describe, expect, it } from 'vitest';
import { CrashAccount, verifyCursors, verifyWrites } from './accounting.js';
import type { LedgerEvent } from './ledger-files.js';

const msg = (id: string, clientId?: string): LedgerEvent => ({ id, kind: 'chat.message', by: 'user', ts: 't', data: clientId ? { client_id: clientId } : {} });
const clientIdOf = (e: LedgerEvent) => e.data['client_id'] as string | undefined;

describe('acknowledged-event accounting', () => {
  it('passes when every acknowledged write is there once, retried ones included', () => {
    const account = new CrashAccount();
    account.sent('w1-1');
    account.ack('w1-1', 'a');
    account.sent('w1-2'); // the daemon died; the retry got the original event back
    account.ack('w1-2', 'b');
    expect(verifyWrites(account, [msg('a', 'w1-1'), msg('b', 'w1-2'), msg('c')], clientIdOf)).toEqual([]);
  });

  it('names a lost write, a duplicate, an unacknowledged one and a retry answered with another event', () => {
    const account = new CrashAccount();
    account.ack('lost', 'x');
    account.ack('dup', 'd1');
    account.sent('never');
    account.ack('twice', 't1');
    account.ack('twice', 't2');
    const problems = verifyWrites(account, [msg('d1', 'dup'), msg('d2', 'dup'), msg('t2', 'twice'), msg('s', 'stray')], clientIdOf);
    expect(problems.join('\n')).toMatch(/lost \(x\) is in the ledger 0 times/);
    expect(problems.join('\n')).toMatch(/dup appended 2 times/);
    expect(problems.join('\n')).toMatch(/stray is in the ledger but was never acknowledged/);
    expect(problems.join('\n')).toMatch(/never was never acknowledged/);
    expect(account.violations).toEqual(['client_id twice acknowledged as t1 and later as t2']);
  });

  it('catches a Mail cursor that goes back: a consumed message offered again, a cursor behind an earlier one', () => {
    const events = ['m1', 'm2', 'm3', 'm4'].map((id) => msg(id));
    const account = new CrashAccount();
    account.read(['m1', 'm2'], { event_id: 'm2', ts: 't' }, 'cycle 1');
    account.peek(['m3'], { event_id: 'm2', ts: 't' }, 'restart 1');
    expect(account.violations).toEqual([]);
    expect(verifyCursors(account, events)).toEqual([]);
    account.peek(['m2', 'm3'], { event_id: 'm1', ts: 't' }, 'restart 2');
    account.read(['m2'], { event_id: 'm2', ts: 't' }, 'cycle 3');
    expect(account.violations).toHaveLength(2);
    expect(verifyCursors(account, events)).toEqual(['restart 2: cursor at ledger position 0, behind 1 seen at cycle 1']);
  });
});
