// Failed logins, counted per account and per address in fixed windows, so that guessing one account's password, or
// many accounts' from one address, slows to a few tries per window. In this process's memory: several instances
// each count their own share (a shared store is issue 27's next step).
//
//   const wait = throttle.attempt(email, address);   // counts the try now; seconds to wait, 0: go ahead
//   if (wait > 0) → 429 with Retry-After: wait
//   … check the password …; throttle.succeeded(email, address) when it was right
//
// A try is counted before the password is checked, not after: a burst of tries sent at once would otherwise all
// pass the check while the first ones are still hashing.

/** How many failures a window allows. */
export interface ThrottleOptions {
  /** Failed logins per account per window (default 5). */
  perAccount?: number;
  /** Failed logins per address per window, all accounts together (default 50). */
  perAddress?: number;
  /** The window, in seconds (default 900: 15 minutes). */
  window?: number;
  /** The most keys kept; past it the oldest are forgotten (default 100,000). */
  maxKeys?: number;
}

interface Count {
  failures: number;
  /** When the window began (ms). */
  since: number;
}

/** Counts failed logins; see the module comment. */
export class LoginThrottle {
  readonly #counts = new Map<string, Count>();
  readonly #perAccount: number;
  readonly #perAddress: number;
  readonly #window: number;
  readonly #maxKeys: number;

  constructor(options: ThrottleOptions = {}) {
    this.#perAccount = options.perAccount ?? 5;
    this.#perAddress = options.perAddress ?? 50;
    this.#window = (options.window ?? 900) * 1000;
    this.#maxKeys = options.maxKeys ?? 100_000;
  }

  /**
   * Counts a login try of `account` from `address` (when known), unless one of them is over its limit: then nothing
   * is counted, and the result is the seconds to wait. 0: go ahead and check the password.
   */
  attempt(account: string, address?: string): number {
    const keys = [accountKey(account), ...(address === undefined ? [] : [`address:${address}`])];
    const limits = [this.#perAccount, this.#perAddress];
    const wait = Math.max(...keys.map((key, i) => this.#waitFor(key, limits[i]!)));
    if (wait === 0) for (const key of keys) this.#count(key);
    return wait;
  }

  /** The try was right: the account's count is forgotten, and the address's try not counted. */
  succeeded(account: string, address?: string): void {
    this.#counts.delete(accountKey(account));
    const count = address === undefined ? undefined : this.#current(`address:${address}`);
    if (count) count.failures--;
  }

  #current(key: string): Count | undefined {
    const count = this.#counts.get(key);
    if (count && Date.now() - count.since >= this.#window) {
      this.#counts.delete(key);
      return undefined;
    }
    return count;
  }

  #waitFor(key: string, limit: number): number {
    const count = this.#current(key);
    if (!count || count.failures < limit) return 0;
    return Math.ceil((count.since + this.#window - Date.now()) / 1000);
  }

  #count(key: string): void {
    const count = this.#current(key);
    if (count) count.failures++;
    else {
      if (this.#counts.size >= this.#maxKeys) this.#counts.delete(this.#counts.keys().next().value!);
      this.#counts.set(key, { failures: 1, since: Date.now() });
    }
  }
}

// One account, however its e-mail address is cased or padded.
const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
