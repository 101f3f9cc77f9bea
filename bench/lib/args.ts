import { type ParseArgsConfig, parseArgs } from 'node:util';

/**
 * A bench's options, read by node's parseArgs. `--help` prints them with
 * their defaults; an unknown or ill-formed option is one line naming it
 * (exit 2) instead of a stack trace.
 */
export function benchArgs<T extends ParseArgsConfig>(
  bench: string,
  config: T,
): ReturnType<typeof parseArgs<T>>['values'] {
  const argv = config.args ?? process.argv.slice(2);
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log(usage(bench, config));
    process.exit(0);
  }
  try {
    return parseArgs(config).values;
  } catch (error) {
    const message = (error as Error).message;
    console.error(`${bench}: ${message}${message.endsWith('.') ? '' : '.'} Run it with --help for its options.`);
    process.exit(2);
  }
}

function usage(bench: string, config: ParseArgsConfig): string {
  const lines = Object.entries(config.options ?? {}).map(([name, option]) => {
    const flag = option.type === 'string' ? `--${name} <value>` : `--${name}`;
    const negative =
      option.type === 'boolean' && config.allowNegative && option.default === true ? ` (--no-${name} to turn off)` : '';
    const fallback = option.default !== undefined && option.type === 'string' ? ` (default ${option.default})` : '';
    return `  ${flag}${fallback}${negative}`;
  });
  return [`npm run ${bench} -- [options]`, ...lines, '  --help'].join('\n');
}
