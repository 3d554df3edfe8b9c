/** Command line and the counts of a full or a quick run. */

export const SECTIONS = ['engine', 'service', 'paging', 'memory', 'semantics', 'expiry', 'ui'] as const;
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
}

export const FULL: Counts = {
  engineMessages: 50_000,
  serviceSendSeconds: 3,
  serviceReceiveMessages: 30_000,
  latencySamples: 2_000,
  bigQueue: 1_000_000,
  semanticsMessages: 50_000,
  expiryMessages: 100_000,
};

export const QUICK: Counts = {
  engineMessages: 20_000,
  serviceSendSeconds: 1,
  serviceReceiveMessages: 10_000,
  latencySamples: 200,
  bigQueue: 20_000,
  semanticsMessages: 5_000,
  expiryMessages: 5_000,
};

export interface Options {
  quick: boolean;
  only: Set<Section>;
  counts: Counts;
  /** Where results.json goes. */
  out: string | null;
  /** Also print the table in Markdown (for bench/README.md). */
  markdown: boolean;
}

export const USAGE = `usage: node dist/bench/run.mjs [--quick] [--markdown] [--only ${SECTIONS.join(',')}] [--out FILE]
  --quick   small counts: a smoke check in about a minute (figures not comparable with a full run)
  --only    run only these sections (comma-separated)
  --markdown  also print the table in Markdown
  --out     where to write the results (default bench/results.json; a --quick run writes bench/results.quick.json)`;

export function parseArgs(argv: string[]): Options {
  let quick = false;
  let only: Set<Section> = new Set(SECTIONS);
  let out: string | null = null;
  let markdown = false;
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
    else if (arg === '--help' || arg === '-h') throw new UsageError('');
    else throw new UsageError(`unknown argument '${arg}'`);
  }
  return { quick, only, counts: quick ? QUICK : FULL, out, markdown };
}

export class UsageError extends Error {}
