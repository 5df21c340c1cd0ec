import { setTimeout as sleep } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { DrainGate } from './drain-gate.js';

function fixtures() {
  const sink = { bufferedAmount: 0, readyState: 1, OPEN: 1 };
  const source = { paused: false, pauses: 0, pause() { this.paused = true; this.pauses++; }, resume() { this.paused = false; } };
  return { sink, source };
}

describe('DrainGate (a browser that stops reading its terminal WebSocket)', () => {
  it('stops reading the daemon past the limit and resumes once half has drained', async () => {
    const { sink, source } = fixtures();
    using gate = new DrainGate(sink, source, 1000, () => false, 5);
    sink.bufferedAmount = 900;
    gate.check();
    expect(source.paused).toBe(false);
    sink.bufferedAmount = 1500;
    gate.check();
    gate.check();
    expect([source.paused, source.pauses, gate.holding]).toEqual([true, 1, true]);
    sink.bufferedAmount = 700;
    await sleep(30);
    expect(source.paused).toBe(true);
    sink.bufferedAmount = 400;
    await sleep(30);
    expect([source.paused, gate.holding]).toEqual([false, false]);
  });

  it('never resumes a source paused for another reason (ack flow control)', async () => {
    const { sink, source } = fixtures();
    let ackPaused = true;
    using gate = new DrainGate(sink, source, 1000, () => ackPaused, 5);
    sink.bufferedAmount = 2000;
    gate.check();
    sink.bufferedAmount = 0;
    await sleep(30);
    expect([source.paused, gate.holding]).toEqual([true, false]);
    ackPaused = false;
  });
});
