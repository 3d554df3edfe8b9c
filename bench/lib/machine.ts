/** What the figures were measured on. */
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
