import type { HeadlessPermission } from '@cccc/ipc-protocol';

/** One pending request as the card shows it: what it asks to do, for a person to approve or deny. */
export function permissionLine(p: Pick<HeadlessPermission, 'kind' | 'summary'>): string {
  const command = typeof p.summary.command === 'string' ? p.summary.command : undefined;
  const reason = typeof p.summary.reason === 'string' ? p.summary.reason : undefined;
  const what = p.kind === 'command' ? (command ? `run ${command}` : 'run a command') : p.kind === 'file_change' ? 'change files' : p.kind;
  return reason ? `${what} (${reason})` : what;
}
