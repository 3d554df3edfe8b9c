/** Command line and the counts of a full or a quick run. */

export const SECTIONS = [
  'engine',
  'service',
  'network',
  'workloads',
  'paging',
  'memory',
  'semantics',
  'expiry',
  'ui',
] as const;
export type Section = (typeof SECTIONS)[number];

export interface Counts {
  /** Messages per in-process throughput run. */
  engineMessages: number;
  /** Seconds each service send run lasts. */
  serviceSendSeconds: number;
  /** Messages prefilled for a service receive run. */
  serviceReceiveMessages: number;
  latencySamples: number;
  /** Size of the big queue for paging, purge and memory. */
  bigQueue: number;
  semanticsMessages: number;
  expiryMessages: number;
  /** Side-by-side workloads: messages and seconds per publish phase (drains are capped at 3× the seconds). */
  workloadMessages: number;
  workloadSeconds: number;
  /** Recoverable messages sent across the link per network run. */
  networkMessages: number;
}

export const FULL: Counts = {
  engineMessages: 50_000,
  serviceSendSeconds: 3,
  serviceReceiveMessages: 30_000,
  latencySamples: 2_000,
  bigQueue: 1_000_000,
  semanticsMessages: 50_000,
  expiryMessages: 100_000,
  workloadMessages: 50_000,
  workloadSeconds: 8,
  networkMessages: 30_000,
};

export const QUICK: Counts = {
  engineMessages: 20_000,
  serviceSendSeconds: 1,
  serviceReceiveMessages: 10_000,
  latencySamples: 200,
  bigQueue: 20_000,
  semanticsMessages: 5_000,
  expiryMessages: 5_000,
  workloadMessages: 5_000,
  workloadSeconds: 2,
  networkMessages: 5_000,
};

export interface Options {
  quick: boolean;
  only: Set<Section>;
  counts: Counts;
  /** Where results.json goes. */
  out: string | null;
  /** Also print the table in Markdown (for bench/README.md). */
  markdown: boolean;
  workloads: {
    /** `--attach DIR`: run the workloads against the service already running on DIR. */
    attach: string | null;
    /** `--workloads-out FILE`: where their JSON goes (default bench/results.workloads.json). */
    out: string | null;
    /** `--cases a,b`: only these workload labels. */
    only: Set<string>;
    /** `--workloads "MSGS SECS BYTES"`: the side-by-side script's arguments (default from the counts, 200 bytes). */
    args: [number, number, number] | null;
    /** `--warm-up` / `--no-warm-up` (default: warm up a service this run started, not an attached one). */
    warmUp: boolean | null;
  };
}

export const USAGE = `usage: node dist/bench/run.mjs [--quick] [--markdown] [--only ${SECTIONS.join(',')}] [--out FILE]
       [--workloads "MSGS SECS BYTES"] [--attach DIR] [--workloads-out FILE] [--cases LABEL,...] [--[no-]warm-up]
  --quick   small counts: a smoke check in about a minute (figures not comparable with a full run)
  --only    run only these sections (comma-separated)
  --markdown  also print the table in Markdown
  --out     where to write the results (default bench/results.json; a --quick run writes bench/results.quick.json)
  workloads (the side-by-side cases, bench/side-by-side/README.md):
  --workloads      messages and seconds per publish phase and body bytes (default "50000 8 200")
  --attach         use the service running on this data folder instead of starting one
  --workloads-out  where their JSON goes (default bench/results.workloads.json)
  --cases          only these cases (labels as in the JSON)
  --warm-up, --no-warm-up  warm the service up first (default: only one this run started)`;

export function parseArgs(argv: string[]): Options {
  let quick = false;
  let only: Set<Section> = new Set(SECTIONS);
  let out: string | null = null;
  let markdown = false;
  const workloads: Options['workloads'] = { attach: null, out: null, only: new Set(), args: null, warmUp: null };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const value = (): string => {
      const v = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
      if (v === undefined) throw new UsageError(`${arg} needs a value`);
      return v;
    };
    if (arg === '--quick') quick = true;
    else if (arg === '--markdown') markdown = true;
    else if (arg === '--only' || arg.startsWith('--only=')) {
      const names = value()
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      for (const name of names)
        if (!(SECTIONS as readonly string[]).includes(name))
          throw new UsageError(`unknown section '${name}' (sections: ${SECTIONS.join(', ')})`);
      only = new Set(names as Section[]);
    } else if (arg === '--out' || arg.startsWith('--out=')) out = value();
    else if (arg === '--attach' || arg.startsWith('--attach=')) workloads.attach = value();
    else if (arg === '--workloads-out' || arg.startsWith('--workloads-out=')) workloads.out = value();
    else if (arg === '--cases' || arg.startsWith('--cases=')) {
      for (const label of value().split(',')) if (label.trim()) workloads.only.add(label.trim());
    } else if (arg === '--workloads' || arg.startsWith('--workloads=')) workloads.args = workloadArgs(value());
    else if (arg === '--warm-up') workloads.warmUp = true;
    else if (arg === '--no-warm-up') workloads.warmUp = false;
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else throw new UsageError(`unknown argument '${arg}'`);
  }
  return { quick, only, counts: quick ? QUICK : FULL, out, markdown, workloads };
}

function workloadArgs(text: string): [number, number, number] {
  const parts = text.trim().split(/\s+/).map(Number);
  if (parts.length !== 3 || !parts.every((n) => Number.isFinite(n) && n > 0))
    throw new UsageError(`--workloads needs three positive numbers: messages, seconds, body bytes (got '${text}')`);
  if ((parts[2] as number) < 30)
    throw new UsageError('--workloads: a body needs at least 30 bytes (it carries its send time)');
  return parts as [number, number, number];
}

export class UsageError extends Error {}
