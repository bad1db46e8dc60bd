// What a process has used so far, read from /proc: the benchmark's figures for the worker, its children
// and the servers it starts (Linux only, as the benchmark is).
import { readFileSync } from 'node:fs';

/** A memory figure of /proc/<pid>/status in MB: VmRSS now, VmHWM at its peak. */
export function rssMb(pid: number | 'self', field: 'VmHWM' | 'VmRSS'): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0) / 1024);
}

/** CPU seconds the process has used (user + system), from /proc/<pid>/stat (clock ticks of 1/100 s). */
export function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}
