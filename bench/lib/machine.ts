/** What the figures were measured on. */
import { execFileSync } from 'node:child_process';
import { cpus, loadavg, platform, release, totalmem } from 'node:os';

export interface MachineInfo {
  cpu: string;
  cores: number;
  memoryGB: number;
  node: string;
  platform: string;
  date: string;
  loadAverageAtStart: number[];
}

export function machineInfo(): MachineInfo {
  const cpu = cpus();
  return {
    cpu: cpu[0]?.model.trim() ?? 'unknown',
    cores: cpu.length,
    memoryGB: Math.round((totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    platform: `${platform()} ${release()}`,
    date: new Date().toISOString(),
    loadAverageAtStart: loadavg().map((l) => Math.round(l * 100) / 100),
  };
}

export const currentLoad = (): number[] => loadavg().map((l) => Math.round(l * 100) / 100);

/** The commit measured, and whether core/ had uncommitted changes (other engineers work in the same tree). */
export function sourceInfo(root: string): { commit: string; coreDirty: boolean | null } {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim();
    const dirty =
      execFileSync('git', ['status', '--porcelain', '--', 'core'], { cwd: root, encoding: 'utf8' }).trim().length > 0;
    return { commit, coreDirty: dirty };
  } catch {
    return { commit: 'unknown', coreDirty: null };
  }
}
