/**
 * machineLine(): one line naming the machine a figure came from (CPU, cores,
 * Node, load average at the time), printed by every benchmark: on a shared
 * machine the load moves the figures.
 */
import { cpus, loadavg } from 'node:os';

export function machineLine(): string {
  const cpu = cpus();
  const load = loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');
  return `machine: ${cpu.length} x ${cpu[0]?.model.trim() ?? 'unknown CPU'}, Node ${process.version}, load average ${load}`;
}
