import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildProgram, TOP_LEVEL_COMMANDS } from './program.js';

/** A command's whole subtree as help shows it: names, arguments, options, descriptions, children. */
function shape(command: Command): unknown {
  return {
    name: command.name(),
    aliases: command.aliases(),
    description: command.description(),
    usage: command.usage(),
    options: command.options.map((o) => [o.flags, o.description, o.defaultValue]),
    commands: command.commands.map(shape),
  };
}

const noExit = (): void => {};

describe('buildProgram', () => {
  it('names every top-level command of the whole tree in its module table', async () => {
    const whole = await buildProgram(noExit);
    expect(whole.commands.map((c) => c.name())).toEqual([...TOP_LEVEL_COMMANDS]);
  });

  it('registers the same subtree for a command whether it loads only that command or everything', async () => {
    const whole = await buildProgram(noExit);
    for (const name of TOP_LEVEL_COMMANDS) {
      const only = await buildProgram(noExit, name);
      const mine = only.commands.find((c) => c.name() === name)!;
      expect(shape(mine), name).toEqual(shape(whole.commands.find((c) => c.name() === name)!));
      expect(only.commands.length, name).toBeLessThan(whole.commands.length);
    }
  });

  it('loads the whole tree for help, an unknown command or none', async () => {
    const whole = (await buildProgram(noExit)).commands.length;
    for (const name of [undefined, '--help', 'help', 'actr', '']) expect((await buildProgram(noExit, name)).commands.length, String(name)).toBe(whole);
  });
});
