import { describePtyContract } from '../testing/pty-contract.js';
import { createFakePtySpawner } from '../testing/fake-pty.js';
import { fakeAgentProgram } from '../testing/fake-agent-program.js';
import { fakeAgentArgv } from '../testing/fake-agent-path.js';
import { spawnNodePty } from './node-pty-session.js';

const base = { cwd: process.cwd(), env: { ...(process.env as Record<string, string>), TERM: 'xterm-256color' }, cols: 120, rows: 40 };

describePtyContract({
  name: 'fake',
  spawnAgent: (args) => createFakePtySpawner(fakeAgentProgram())({ ...base, argv: ['fake-agent', ...args] }),
});

describePtyContract({
  name: 'node-pty',
  spawnAgent: (args) => spawnNodePty({ ...base, argv: fakeAgentArgv(args) }),
  skip: process.platform === 'win32' ? { 'kill fires onExit once': 'conpty reports no signal numbers' } : {},
});
