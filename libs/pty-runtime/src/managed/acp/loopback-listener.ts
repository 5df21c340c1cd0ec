import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

// Which TCP port a process group listens on, from /proc (Linux). An agent started with
// `--port 0` picks its own port and prints it nowhere we can rely on; the kernel's socket
// table is the one authoritative answer.

/** Members of process group `pgid` (the leader included). */
export function processGroupMembers(pgid: number): number[] {
  const members: number[] = [];
  for (const name of safeReaddir('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // Fields after the `(comm)` that may itself contain spaces: state ppid pgrp …
      const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(rest[2]) === pgid) members.push(Number(name));
    } catch {
      // exited meanwhile
    }
  }
  return members;
}

function socketInodes(pid: number): Set<string> {
  const inodes = new Set<string>();
  for (const fd of safeReaddir(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      if (m) inodes.add(m[1]!);
    } catch {
      // closed meanwhile
    }
  }
  return inodes;
}

/** IPv4 loopback ports in LISTEN state owned by `pgid`'s processes. */
export function loopbackListenPorts(pgid: number): number[] {
  const inodes = new Set<string>();
  for (const pid of processGroupMembers(pgid)) for (const inode of socketInodes(pid)) inodes.add(inode);
  const ports: number[] = [];
  let table = '';
  try {
    table = readFileSync('/proc/net/tcp', 'utf8');
  } catch {
    return ports;
  }
  for (const line of table.split('\n').slice(1)) {
    const cols = line.trim().split(/\s+/);
    // sl local_address rem_address st … inode(9)
    if (cols.length < 10 || cols[3] !== '0A' || !inodes.has(cols[9]!)) continue;
    const [addr, port] = cols[1]!.split(':');
    if (addr !== '0100007F') continue; // 127.0.0.1 (little-endian hex)
    ports.push(parseInt(port!, 16));
  }
  return ports;
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
