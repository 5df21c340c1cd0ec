import type { OpArgsInput, OpName, OpResult } from '@cccc/ipc-protocol';
import { callOp, type CallOptions } from '@cccc/ipc-protocol/call';
import type { DaemonClient, EventStream, TermAttachment } from '@cccc/ipc-protocol/node';

/**
 * How commands reach the daemon. A call is one exchange through `@cccc/ipc-protocol/call`, which
 * loads no zod (most of a command's start-up otherwise); a stream (`tail -f`, `term`) loads the
 * DaemonClient when it opens. Calls and streams use the same endpoint and budgets.
 */
export class CliClient {
  constructor(
    readonly home: string,
    private readonly options: CallOptions = {},
  ) {}

  call<K extends OpName>(op: K, args: OpArgsInput<K>): Promise<OpResult<K>> {
    return callOp(this.home, op, args, this.options);
  }

  async openEventsStream(args: OpArgsInput<'events_stream'>): Promise<EventStream> {
    return (await this.streams()).openEventsStream(args);
  }

  async openTermAttach(args: OpArgsInput<'term_attach'>): Promise<TermAttachment> {
    return (await this.streams()).openTermAttach(args);
  }

  private async streams(): Promise<DaemonClient> {
    const { DaemonClient } = await (await import('./packages.js')).importIpcNode();
    return new DaemonClient({ home: this.home, ...this.options });
  }
}

export function clientFor(home: string, options: CallOptions = {}): CliClient {
  return new CliClient(home, options);
}
