/**
 * CPU pinning: with the load generator and the servers on separate cores, a server never competes
 * with autocannon for CPU, so differences between targets are differences between the servers.
 */
import { execFile } from 'node:child_process';
import { availableParallelism } from 'node:os';
import process from 'node:process';
import { promisify } from 'node:util';

const execFileAsync = promisify(execFile);

export type Pinning =
  | { readonly mode: 'pinned'; readonly clientCpu: number; readonly serverCpu: number }
  | { readonly mode: 'unpinned'; readonly reason: string };

/** "0,2-3" -> [0, 2, 3], the format `taskset -c -p` prints. */
function parseCpuList(list: string): number[] {
  const cpus: number[] = [];
  for (const part of list.trim().split(',')) {
    const match = /^(\d+)(?:-(\d+))?$/.exec(part.trim());
    if (!match) continue;
    const first = Number(match[1]);
    const last = match[2] === undefined ? first : Number(match[2]);
    for (let cpu = first; cpu <= last && cpus.length < 4096; cpu++) cpus.push(cpu);
  }
  return cpus;
}

export async function pinSelf(): Promise<Pinning> {
  // availableParallelism() honours the affinity mask, so it is the number `nproc` prints.
  const count = availableParallelism();
  if (count < 2) return { mode: 'unpinned', reason: `only ${count} CPU available` };
  let allowed: number[];
  try {
    const { stdout } = await execFileAsync('taskset', ['-c', '-p', String(process.pid)]);
    allowed = parseCpuList(stdout.slice(stdout.lastIndexOf(':') + 1));
  } catch (error) {
    return { mode: 'unpinned', reason: `taskset unavailable (${(error as Error).message.split('\n')[0]})` };
  }
  const [clientCpu, serverCpu] = allowed;
  if (clientCpu === undefined || serverCpu === undefined)
    return { mode: 'unpinned', reason: 'fewer than 2 CPUs in the affinity mask' };
  try {
    // -a: every thread of this process (libuv pool included), and threads started later inherit it.
    await execFileAsync('taskset', ['-a', '-c', '-p', String(clientCpu), String(process.pid)]);
  } catch (error) {
    return {
      mode: 'unpinned',
      reason: `taskset could not pin this process (${(error as Error).message.split('\n')[0]})`,
    };
  }
  return { mode: 'pinned', clientCpu, serverCpu };
}

/** `<command> <args>`, under `taskset` on the server core when pinning. */
export function serverCommand(
  pinning: Pinning,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  return pinning.mode === 'pinned'
    ? { command: 'taskset', args: ['-c', String(pinning.serverCpu), command, ...args] }
    : { command, args: [...args] };
}

/** `node <args>`, under `taskset` on the server core when pinning. */
export const nodeCommand = (pinning: Pinning, args: readonly string[]): { command: string; args: string[] } =>
  serverCommand(pinning, process.execPath, args);
