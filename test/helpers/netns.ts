/**
 * Separate hosts for network tests: Linux network namespaces made by the test (docs/network.md). Every host
 * gets its own loopback and one veth link to a switch namespace holding a bridge; addresses are
 * 10.77.<lab>.<n>/24, chosen here and reachable only inside the lab (namespaces do not route to the machine's
 * own network). A partition is a link set down on the switch side, and back up.
 *
 * Needs root (`ip netns`); `netnsUnavailable()` says why a test must be skipped otherwise. Namespaces are
 * named `qknet<pid>-…`; a lab also removes what a crashed run of this helper left behind (only names whose
 * process is gone).
 */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

async function ip(...args: string[]): Promise<string> {
  const { stdout } = await run('ip', args, { timeout: 10_000 });
  return stdout;
}

let probed: Promise<string | null> | undefined;

/** Null when network namespaces can be made here; otherwise the reason (printed by skipped tests). */
export function netnsUnavailable(): Promise<string | null> {
  probed ??= (async () => {
    if (process.platform !== 'linux') return `network namespaces need Linux (this is ${process.platform})`;
    if (process.getuid?.() !== 0) return 'network namespaces need root (ip netns add); run as root to include them';
    const probe = `qknet${process.pid}-probe`;
    try {
      await ip('netns', 'add', probe);
      await ip('netns', 'del', probe);
      return null;
    } catch (error) {
      return `ip netns is not usable here: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`;
    }
  })();
  return probed;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes namespaces left by runs of this helper whose process is gone. */
async function removeStale(): Promise<void> {
  const list = await ip('netns', 'list');
  for (const line of list.split('\n')) {
    const name = line.split(' ')[0] ?? '';
    const match = /^qknet(\d+)-/.exec(name);
    if (match && Number(match[1]) !== process.pid && !alive(Number(match[1]))) {
      await ip('netns', 'del', name).catch(() => undefined);
    }
  }
}

let labs = 0;

export interface LabHost {
  /** The name given to the lab (a computer name). */
  readonly name: string;
  /** The namespace the host's processes run in. */
  readonly netns: string;
  /** Its address on the lab's link. */
  readonly address: string;
}

/** A set of hosts on one switch. */
export class NetnsLab {
  private constructor(
    private readonly sw: string,
    private readonly hosts: Map<string, LabHost & { swEnd: string }>,
  ) {}

  /** Makes one namespace per host name, all linked to one switch. Throws when netnsUnavailable() is not null. */
  static async create(names: string[]): Promise<NetnsLab> {
    const why = await netnsUnavailable();
    if (why) throw new Error(why);
    await removeStale();
    labs += 1;
    const tag = `qknet${process.pid}-${labs}`;
    const subnet = `10.77.${(process.pid + labs) % 250}`;
    const sw = `${tag}-sw`;
    const hosts = new Map<string, LabHost & { swEnd: string }>();
    const lab = new NetnsLab(sw, hosts);
    try {
      await ip('netns', 'add', sw);
      await ip('-n', sw, 'link', 'add', 'br0', 'type', 'bridge');
      await ip('-n', sw, 'link', 'set', 'br0', 'up');
      let n = 0;
      for (const name of names) {
        n += 1;
        const netns = `${tag}-h${n}`;
        const swEnd = `sw${n}`;
        const address = `${subnet}.${n + 1}`;
        await ip('netns', 'add', netns);
        hosts.set(name.toLowerCase(), { name, netns, address, swEnd });
        await ip('-n', netns, 'link', 'set', 'lo', 'up');
        // Both ends are made in the host's namespace, then one moves to the switch.
        await ip('-n', netns, 'link', 'add', 'eth0', 'type', 'veth', 'peer', 'name', swEnd);
        await ip('-n', netns, 'link', 'set', swEnd, 'netns', sw);
        await ip('-n', netns, 'addr', 'add', `${address}/24`, 'dev', 'eth0');
        await ip('-n', netns, 'link', 'set', 'eth0', 'up');
        await ip('-n', sw, 'link', 'set', swEnd, 'master', 'br0');
        await ip('-n', sw, 'link', 'set', swEnd, 'up');
      }
      return lab;
    } catch (error) {
      await lab.dispose();
      throw error;
    }
  }

  host(name: string): LabHost {
    const found = this.hosts.get(name.toLowerCase());
    if (!found) throw new Error(`no host ${name} in this lab`);
    return found;
  }

  /** Cuts a host off the switch (a partition): its connections stall, new ones fail. */
  async linkDown(name: string): Promise<void> {
    await ip('-n', this.sw, 'link', 'set', this.swEndOf(name), 'down');
  }

  async linkUp(name: string): Promise<void> {
    await ip('-n', this.sw, 'link', 'set', this.swEndOf(name), 'up');
  }

  /** Deletes every namespace of the lab (processes still inside must be stopped first). */
  async dispose(): Promise<void> {
    for (const host of this.hosts.values()) await ip('netns', 'del', host.netns).catch(() => undefined);
    await ip('netns', 'del', this.sw).catch(() => undefined);
  }

  private swEndOf(name: string): string {
    const found = this.hosts.get(name.toLowerCase());
    if (!found) throw new Error(`no host ${name} in this lab`);
    return found.swEnd;
  }
}
