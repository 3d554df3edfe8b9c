/** A command line that is wrong (exit 2): a bad value, a missing or conflicting option. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
