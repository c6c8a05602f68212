// Failed logins, counted per account and per address in fixed windows, so that guessing one account's password, or
// many accounts' from one address, slows to a few tries per window. The counts are in this process's memory by
// default; with a shared ThrottleStore (pagetree/postgres, pagetree/redis) every instance counts in the same place.
//
//   const wait = await throttle.attempt(email, address);   // counts the try now; seconds to wait, 0: go ahead
//   if (wait > 0) → 429 with Retry-After: wait
//   … check the password …; await throttle.succeeded(email, address) when it was right
//
// A try is counted before the password is checked, not after, and counting is one atomic step of the store that
// answers the new count: a burst of tries sent at once, to one instance or to several, cannot all pass while the
// first ones are still hashing. Tries refused are counted too; the window does not move, so that costs nothing.

/** How many failures a window allows. */
export interface ThrottleOptions {
  /** Failed logins per account per window (default 5). */
  perAccount?: number;
  /** Failed logins per address per window, all accounts together (default 50). */
  perAddress?: number;
  /** The window, in seconds (default 900: 15 minutes). */
  window?: number;
  /** The most keys kept in memory; past it the oldest are forgotten (default 100,000). Not used with a `store`. */
  maxKeys?: number;
  /** Where the counts are kept: shared by every instance (default: this process's memory). */
  store?: ThrottleStore;
}

/** A count of tries in its window. */
export interface ThrottleCount {
  count: number;
  /** Seconds until the window ends (at least 1). */
  resetsIn: number;
}

/** Counters in fixed windows, kept where every instance sees them. */
export interface ThrottleStore {
  /** Adds one to `key`'s count, in a new window of `window` seconds when there is none, and answers the new count. */
  hit(key: string, window: number): Promise<ThrottleCount>;
  /** Takes one from `key`'s count (a try that should not have counted). */
  undo(key: string): Promise<void>;
  /** Forgets `key`. */
  delete(key: string): Promise<void>;
}

interface Count {
  count: number;
  /** When the window ends (ms). */
  until: number;
}

/**
 * The counts in this process's memory: the default store. At most `maxKeys` keys; past it the oldest go.
 * @example new LoginThrottle({ store: new MemoryThrottleStore(10_000) })
 */
export class MemoryThrottleStore implements ThrottleStore {
  readonly #counts = new Map<string, Count>();
  readonly #maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.#maxKeys = maxKeys;
  }

  // Synchronous inside: a burst of tries in one process is counted in call order.
  hit(key: string, window: number): Promise<ThrottleCount> {
    const now = Date.now();
    let count = this.#current(key, now);
    if (count) count.count++;
    else {
      if (this.#counts.size >= this.#maxKeys) this.#counts.delete(this.#counts.keys().next().value!);
      this.#counts.set(key, (count = { count: 1, until: now + window * 1000 }));
    }
    return Promise.resolve({ count: count.count, resetsIn: Math.max(1, Math.ceil((count.until - now) / 1000)) });
  }

  undo(key: string): Promise<void> {
    const count = this.#current(key, Date.now());
    if (count && count.count > 0) count.count--;
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    this.#counts.delete(key);
    return Promise.resolve();
  }

  #current(key: string, now: number): Count | undefined {
    const count = this.#counts.get(key);
    if (count && now >= count.until) {
      this.#counts.delete(key);
      return undefined;
    }
    return count;
  }
}

/** Counts failed logins; see the module comment. */
export class LoginThrottle {
  readonly #store: ThrottleStore;
  readonly #perAccount: number;
  readonly #perAddress: number;
  readonly #window: number;

  constructor(options: ThrottleOptions = {}) {
    this.#perAccount = options.perAccount ?? 5;
    this.#perAddress = options.perAddress ?? 50;
    this.#window = options.window ?? 900;
    this.#store = options.store ?? new MemoryThrottleStore(options.maxKeys);
  }

  /**
   * Counts a login try of `account` from `address` (when known). Resolves to the seconds to wait when one of them
   * is over its limit, else 0: go ahead and check the password.
   * @example await throttle.attempt('ada@example.com', '203.0.113.9') // → 0, and 900 on the sixth failed try
   */
  async attempt(account: string, address?: string): Promise<number> {
    const tries = [this.#store.hit(accountKey(account), this.#window)];
    if (address !== undefined) tries.push(this.#store.hit(addressKey(address), this.#window));
    const [byAccount, byAddress] = await Promise.all(tries);
    let wait = byAccount!.count > this.#perAccount ? byAccount!.resetsIn : 0;
    if (byAddress && byAddress.count > this.#perAddress) wait = Math.max(wait, byAddress.resetsIn);
    return wait;
  }

  /** The try was right: the account's count is forgotten, and the address's try not counted. */
  async succeeded(account: string, address?: string): Promise<void> {
    await Promise.all([
      this.#store.delete(accountKey(account)),
      address === undefined ? undefined : this.#store.undo(addressKey(address)),
    ]);
  }
}

// One account, however its e-mail address is cased or padded.
const accountKey = (account: string) => `account:${account.trim().toLowerCase()}`;
const addressKey = (address: string) => `address:${address}`;
