import type { Socket } from 'node:net';
import type { UpgradedConnection } from '../upgrade.js';

function listen<T extends unknown[]>(socket: Socket, event: string, fn: (...a: T) => void): Disposable {
  socket.on(event, fn as (...a: unknown[]) => void);
  return { [Symbol.dispose]: () => socket.off(event, fn as (...a: unknown[]) => void) };
}

/** An upgraded stream over a socket; `leading` are bytes that arrived with the handshake. */
export function socketConnection(socket: Socket, leading: Uint8Array): UpgradedConnection {
  let pendingLeading: Uint8Array | undefined = leading.length > 0 ? leading : undefined;
  return {
    write: (data) => (socket.destroyed ? false : socket.write(data)),
    writev(chunks) {
      if (socket.destroyed) return false;
      // Corked writes leave as one writev when uncorked, instead of one syscall per chunk.
      socket.cork();
      let ok = true;
      for (const chunk of chunks) ok = socket.write(chunk);
      socket.uncork();
      return ok;
    },
    onData(listener) {
      if (pendingLeading) {
        const first = pendingLeading;
        pendingLeading = undefined;
        queueMicrotask(() => listener(first));
      }
      const d = listen<[Buffer]>(socket, 'data', listener);
      socket.resume();
      return d;
    },
    onDrain: (listener) => listen(socket, 'drain', listener),
    onClose(listener) {
      if (socket.destroyed) {
        queueMicrotask(listener);
        return { [Symbol.dispose]: () => {} };
      }
      return listen(socket, 'close', listener);
    },
    get pendingBytes() {
      return socket.writableLength;
    },
    get closed() {
      return socket.destroyed;
    },
    close: () => socket.destroy(),
  };
}
