import { Command } from 'commander';
import { registerDaemonCommands } from './commands/daemon.js';
import { registerActorCommands } from './commands/actors.js';
import { registerContextCommands } from './commands/context.js';
import { registerMemoryCommands } from './commands/memory.js';
import { registerVoiceCommands } from './commands/voice.js';
import { registerGroupCommands } from './commands/groups.js';
import { registerInboxCommands } from './commands/inbox.js';
import { registerMessageCommands } from './commands/messages.js';
import { registerMcpCommand } from './commands/mcp.js';
import { registerNotifyCommand } from './commands/notify.js';
import { registerPingCommand } from './commands/ping.js';
import { registerProfileCommands } from './commands/profiles.js';
import { registerTailCommand } from './commands/tail.js';
import { registerUseCommand } from './commands/use.js';
import { registerTermCommand } from './commands/term.js';
import { registerTerminalCommands } from './commands/terminal.js';
import { registerLifecycleCommands } from './commands/lifecycle.js';
import { registerDeliveryCommands } from './commands/delivery.js';
import { registerLedgerCommands } from './commands/ledger.js';
import { registerRuntimeCommands } from './commands/runtime.js';
import { registerDoctorCommand } from './commands/doctor.js';
import { registerWebCommands } from './commands/web.js';
import { registerHookCommands } from './commands/hook.js';
import { registerPresentCommands } from './commands/present.js';
import { registerAutomationCommands } from './commands/automation.js';
import { registerCapabilityCommands } from './commands/capability.js';
import { registerImCommands } from './commands/im.js';

/** Build the `cccc` command tree; `setExit` records the process exit code. */
export function buildProgram(setExit: (code: number) => void): Command {
  const program = new Command('cccc')
    .description('CCCC-TS: run several AI coding agents as one durable team')
    .showHelpAfterError()
    .exitOverride();
  registerDaemonCommands(program, setExit);
  registerPingCommand(program, setExit);
  registerGroupCommands(program, setExit);
  registerUseCommand(program, setExit);
  registerActorCommands(program, setExit);
  registerProfileCommands(program, setExit);
  registerMessageCommands(program, setExit);
  registerInboxCommands(program, setExit);
  registerTailCommand(program, setExit);
  registerNotifyCommand(program, setExit);
  registerContextCommands(program, setExit);
  registerMemoryCommands(program, setExit);
  registerVoiceCommands(program, setExit);
  registerMcpCommand(program, setExit);
  registerLifecycleCommands(program, setExit);
  registerTermCommand(program, setExit);
  registerTerminalCommands(program, setExit);
  registerDeliveryCommands(program, setExit);
  registerLedgerCommands(program, setExit);
  registerRuntimeCommands(program, setExit);
  registerDoctorCommand(program, setExit);
  registerWebCommands(program, setExit);
  registerHookCommands(program, setExit);
  registerPresentCommands(program, setExit);
  registerAutomationCommands(program, setExit);
  registerCapabilityCommands(program, setExit);
  registerImCommands(program, setExit);
  return program;
}
