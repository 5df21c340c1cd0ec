import { describeIpcContract } from './testing.js';
import { loopbackConnection } from './loopback.js';
import { IpcError } from './errors.js';
import { OpRouter } from './router.js';

const PID = 4242;
const router = new OpRouter()
  .register('ping', () => ({ version: '0.1.0', implementation: 'cccc-ts', pid: PID, ts: new Date().toISOString(), ipc_v: 1 as const, capabilities: {} }))
  .register('shutdown', (args) => {
    if (args.expected_pid !== undefined && args.expected_pid !== PID) {
      throw new IpcError('daemon_owner_mismatch', 'expected_pid does not match this daemon', { pid: PID });
    }
    return { message: 'shutting down' };
  })
  .register('ledger_snapshot', (args) => ({ snapshot: { group_id: args.group_id } }));

describeIpcContract({
  name: 'in-memory loopback',
  connect: async () => loopbackConnection(router, 1024 * 1024),
  maxLineBytes: 1024 * 1024,
  expectedPid: PID,
});
