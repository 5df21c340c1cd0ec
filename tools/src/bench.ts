// `npm run bench`: prints figures with baselines measured in the same run. Not a test.
import { existsSync } from 'node:fs';
import { benchPing } from './bench/ping.js';

type Section = { name: string; run: () => Promise<void>; byNameOnly?: boolean };

const sections: Section[] = [{ name: 'ping', run: () => benchPing() }];

// Sections owned by other packages join when their module is present in the build.
const optional: Array<{ name: string; module: string; fn: string; byNameOnly?: boolean }> = [
  { name: 'ledger', module: './bench/ledger.js', fn: 'benchLedger' },
  { name: 'kernel', module: './bench/kernel.js', fn: 'benchKernel' },
  { name: 'pty', module: './bench/pty.js', fn: 'benchPty' },
  { name: 'context', module: './bench/context.js', fn: 'benchContext' },
  { name: 'memory-search', module: './bench/memory-search.js', fn: 'benchMemorySearch' },
  { name: 'space', module: './bench/space.js', fn: 'benchSpace' },
  { name: 'mcp', module: './bench/mcp.js', fn: 'benchMcp' },
  { name: 'attach', module: './bench/attach.js', fn: 'benchAttach' },
  { name: 'runtime', module: './bench/runtime.js', fn: 'benchRuntime' },
  { name: 'web', module: './bench/web.js', fn: 'benchWeb' },
  { name: 'web-render', module: './bench/web-render.js', fn: 'benchWebRender' },
  { name: 'hooks', module: './bench/hooks.js', fn: 'benchHooks' },
  // About two minutes, the pinned real claude: a turn of 20 tool calls on command vs http hooks.
  { name: 'hooks-http', module: './bench/hooks-http.js', fn: 'benchHooksHttp', byNameOnly: true },
  { name: 'cli', module: './bench/cli.js', fn: 'benchCli' },
  { name: 'idle-rss', module: './bench/idle-rss.js', fn: 'benchIdleRss' },
  { name: 'working-state', module: './bench/working-state.js', fn: 'benchWorkingState' },
  // About a minute: group start with 20 actors and a first delivery, beside the reference when configured.
  { name: 'startup', module: './bench/startup.js', fn: 'benchStartup' },
  // Minutes, and the pinned real claude: only when asked for by name.
  { name: 'delivery-matrix', module: './bench/delivery-matrix.js', fn: 'benchDeliveryMatrix', byNameOnly: true },
  // About a minute, the pinned real codex: managed (app-server) vs native PTY delivery, footprint.
  { name: 'codex-managed', module: './bench/codex-managed.js', fn: 'benchCodexManaged', byNameOnly: true },
  // About a minute, the pinned real opencode: daemon-managed ACP delivery vs a bare ACP session.
  { name: 'opencode-managed', module: './bench/opencode-managed.js', fn: 'benchOpencodeManaged', byNameOnly: true },
  // ~75 s: ledger rotations in process (append / consume / event-loop lag beside steady).
  { name: 'rotation', module: './bench/rotation-stall.js', fn: 'benchRotation', byNameOnly: true },
  // Minutes (a 10-minute load by default; CCCC_BENCH_MEMORY_MINUTES=2 for a quick look).
  { name: 'memory', module: './bench/memory.js', fn: 'benchMemory', byNameOnly: true },
  // Minutes: a fresh clone's npm install + npm start (README's first line), last so the others run first.
  { name: 'cold-start', module: './bench/cold-start.js', fn: 'benchColdStart' },
];
for (const o of optional) {
  const file = new URL(o.module, import.meta.url);
  if (existsSync(file)) {
    sections.push({
      name: o.name,
      byNameOnly: o.byNameOnly,
      run: async () => {
        const mod = (await import(file.href)) as Record<string, () => Promise<void>>;
        await mod[o.fn]!();
      },
    });
  }
}

const only = process.argv.slice(2).filter((a) => !a.startsWith('-'));
// A section named on the command line that is not built must say so, not run nothing.
const unknown = only.filter((name) => !sections.some((s) => s.name === name));
if (unknown.length > 0) {
  console.error(`no bench section named ${unknown.join(', ')} (built: ${sections.map((s) => s.name).join(', ')})`);
  process.exit(2);
}
console.log(`# CCCC-TS benchmarks (node ${process.version}, ${new Date().toISOString()})`);
for (const section of sections) {
  if (only.length > 0 ? !only.includes(section.name) : section.byNameOnly) continue;
  await section.run();
}
