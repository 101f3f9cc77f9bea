import { type Command, CommanderError } from 'commander';

/**
 * Parses a subcommand's arguments with its exitOverride()n program: null to go
 * on, or the exit status when parsing ended the run (0 after help or the
 * version, 2 for a usage error, which commander has already printed).
 */
export function parseOrExit(program: Command, argv: readonly string[]): number | null {
  try {
    program.parse([...argv], { from: 'user' });
    return null;
  } catch (error) {
    if (!(error instanceof CommanderError)) throw error;
    return ['commander.helpDisplayed', 'commander.version', 'commander.help'].includes(error.code) ? 0 : 2;
  }
}
