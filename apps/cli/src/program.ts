import { Command } from 'commander';

type SetExit = (code: number) => void;
type Register = (program: Command, setExit: SetExit) => void;

interface CommandModule {
  /** The top-level commands the module adds, or adds subcommands to. */
  readonly names: readonly string[];
  readonly load: () => Promise<Register>;
}

/**
 * Every command module, in the order the whole tree registers them. A `cccc` run loads and
 * registers only the modules of the top-level command it names (issue 35: a command's start-up is
 * the command's own modules, not the tree's); help, an unknown command or no command at all
 * registers every one. program.test.ts checks each command's subtree is the same either way.
 */
const COMMAND_MODULES: readonly CommandModule[] = [
  { names: ['daemon'], load: async () => (await import('./commands/daemon.js')).registerDaemonCommands },
  { names: ['ping'], load: async () => (await import('./commands/ping.js')).registerPingCommand },
  { names: ['attach', 'groups', 'group'], load: async () => (await import('./commands/groups.js')).registerGroupCommands },
  { names: ['use'], load: async () => (await import('./commands/use.js')).registerUseCommand },
  { names: ['actor'], load: async () => (await import('./commands/actors.js')).registerActorCommands },
  { names: ['profile'], load: async () => (await import('./commands/profiles.js')).registerProfileCommands },
  { names: ['send', 'reply'], load: async () => (await import('./commands/messages.js')).registerMessageCommands },
  { names: ['inbox', 'history'], load: async () => (await import('./commands/inbox.js')).registerInboxCommands },
  { names: ['tail'], load: async () => (await import('./commands/tail.js')).registerTailCommand },
  { names: ['notify'], load: async () => (await import('./commands/notify.js')).registerNotifyCommand },
  { names: ['context', 'task', 'brief', 'tracked-send'], load: async () => (await import('./commands/context.js')).registerContextCommands },
  { names: ['memory'], load: async () => (await import('./commands/memory.js')).registerMemoryCommands },
  { names: ['voice'], load: async () => (await import('./commands/voice.js')).registerVoiceCommands },
  { names: ['mcp'], load: async () => (await import('./commands/mcp.js')).registerMcpCommand },
  { names: ['actor', 'group'], load: async () => (await import('./commands/lifecycle.js')).registerLifecycleCommands },
  { names: ['term'], load: async () => (await import('./commands/term.js')).registerTermCommand },
  { names: ['terminal'], load: async () => (await import('./commands/terminal.js')).registerTerminalCommands },
  { names: ['deliver', 'cancel-reply'], load: async () => (await import('./commands/delivery.js')).registerDeliveryCommands },
  { names: ['ledger'], load: async () => (await import('./commands/ledger.js')).registerLedgerCommands },
  { names: ['runtime'], load: async () => (await import('./commands/runtime.js')).registerRuntimeCommands },
  { names: ['doctor'], load: async () => (await import('./commands/doctor.js')).registerDoctorCommand },
  { names: ['web'], load: async () => (await import('./commands/web.js')).registerWebCommands },
  { names: ['hook', 'activity'], load: async () => (await import('./commands/hook.js')).registerHookCommands },
  { names: ['present'], load: async () => (await import('./commands/present.js')).registerPresentCommands },
  { names: ['automation'], load: async () => (await import('./commands/automation.js')).registerAutomationCommands },
  { names: ['capability'], load: async () => (await import('./commands/capability.js')).registerCapabilityCommands },
  { names: ['im'], load: async () => (await import('./commands/im.js')).registerImCommands },
];

/** The top-level command names, in registration order (each once). */
export const TOP_LEVEL_COMMANDS: readonly string[] = [...new Set(COMMAND_MODULES.flatMap((m) => m.names))];

/**
 * Build the `cccc` command tree; `setExit` records the process exit code. With `commandName`
 * (argv's first word) only that command's modules are loaded; without it, or when it names no
 * command (`--help`, a typo), the whole tree is, so help and "unknown command" read as always.
 */
export async function buildProgram(setExit: SetExit, commandName?: string): Promise<Command> {
  const program = new Command('cccc')
    .description('CCCC-TS: run several AI coding agents as one durable team')
    .showHelpAfterError()
    .exitOverride();
  const named = COMMAND_MODULES.filter((m) => commandName !== undefined && m.names.includes(commandName));
  const registers = await Promise.all((named.length > 0 ? named : COMMAND_MODULES).map((m) => m.load()));
  for (const register of registers) register(program, setExit);
  return program;
}
