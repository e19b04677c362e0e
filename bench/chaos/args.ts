/** Command line of `npm run bench:chaos`. */
export interface ChaosArgs {
  runs: number;
  seed: number;
  verbose: boolean;
  /** Seconds between two triggers. */
  spacingS: number;
  /** Faults per run (on average over the schedule). */
  faultRate: number;
  /** Seconds to wait for quiescence after the last trigger. */
  deadlineS: number;
  /** `bwrap` (the default when it works) or `none`. */
  sandbox: 'bwrap' | 'none';
  workers: number;
  /** Keep the temporary directory (logs, workdirs, remote) for a post-mortem. */
  keep: boolean;
}

const USAGE = `usage: node dist/bench/chaos.js [--runs N] [--seed S] [--verbose] [--spacing SECONDS]
  [--fault-rate F] [--deadline SECONDS] [--sandbox bwrap|none] [--workers 1|2] [--keep]`;

export function parseArgs(argv: string[]): ChaosArgs {
  const args: ChaosArgs = {
    runs: 40,
    seed: 1,
    verbose: false,
    spacingS: 2.5,
    faultRate: 0.6,
    deadlineS: 420,
    sandbox: 'bwrap',
    workers: 2,
    keep: false,
  };
  const number = (name: string, value: string | undefined, min: number): number => {
    const n = Number(value);
    if (value === undefined || !Number.isFinite(n) || n < min) {
      throw new Error(`${name} needs a number ≥ ${min}\n${USAGE}`);
    }
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? arg.split('=', 2) : [arg];
    const value = (): string | undefined => inline ?? argv[++i];
    switch (name) {
      case '--runs':
        args.runs = Math.floor(number(name, value(), 1));
        break;
      case '--seed':
        args.seed = Math.floor(number(name, value(), 0));
        break;
      case '--spacing':
        args.spacingS = number(name, value(), 0);
        break;
      case '--fault-rate':
        args.faultRate = number(name, value(), 0);
        break;
      case '--deadline':
        args.deadlineS = number(name, value(), 1);
        break;
      case '--workers':
        args.workers = Math.min(2, Math.floor(number(name, value(), 1)));
        break;
      case '--sandbox': {
        const v = value();
        if (v !== 'bwrap' && v !== 'none') throw new Error(`--sandbox is bwrap or none\n${USAGE}`);
        args.sandbox = v;
        break;
      }
      case '--verbose':
      case '-v':
        args.verbose = true;
        break;
      case '--keep':
        args.keep = true;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`);
    }
  }
  return args;
}
