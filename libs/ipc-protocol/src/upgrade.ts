/** A connection taken over by a streaming op after its handshake line (§4.4, §4.5). */
export interface UpgradedConnection {
  /** Queue bytes; returns false when the peer is not keeping up (wait for `onDrain`). */
  write(data: Uint8Array | string): boolean;
  /** Queue several chunks as one write (one writev syscall on sockets); returns like `write`. */
  writev?(chunks: readonly Uint8Array[]): boolean;
  onData(listener: (chunk: Uint8Array) => void): Disposable;
  onDrain(listener: () => void): Disposable;
  onClose(listener: () => void): Disposable;
  /** Bytes queued but not yet handed to the OS. */
  readonly pendingBytes: number;
  readonly closed: boolean;
  close(): void;
}

/**
 * What an upgrading handler returns: the handshake result, and what to do with the connection
 * once that result has been written. The transport never interprets the stream itself.
 */
export class StreamUpgrade<R = Record<string, unknown>> {
  constructor(
    readonly result: R,
    readonly start: (connection: UpgradedConnection) => void,
  ) {}
}

export function isStreamUpgrade(value: unknown): value is StreamUpgrade<unknown> {
  return value instanceof StreamUpgrade;
}
