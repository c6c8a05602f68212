// Failed logins, counted per address, per account from one address, and per account, in fixed windows, so that
// guessing one account's password, or many accounts' from one address, slows to a few tries per window. The counts
// are in this process's memory by default; with a shared ThrottleStore (pagetree/postgres, pagetree/redis) every
// instance counts in the same place.
//
//   const wait = await throttle.attempt(email, address);   // counts the try now; seconds to wait, 0: go ahead
//   if (wait > 0) → 429 with Retry-After: wait
//   … check the password …; await throttle.succeeded(email, address) when it was right
//
// A try is counted before the password is checked, not after, and counting is one atomic step of the store that
// answers the new count: a burst of tries sent at once, to one instance or to several, cannot all pass while the
// first ones are still hashing. The keys are counted from the widest to the narrowest, and a try refused by one is
// counted on none after it:
//
//   address:203.0.113.9 (50)  →  pair:["203.0.113.9","ada@example.com"] (perAccountAndAddress)  →  account:ada@… (5)
//
// so an address over its limit adds no key at all (it cannot fill the store with accounts), and an address locked
// out of one account does not push that account toward its own lock.

/** How many failures a window allows. */
export interface ThrottleOptions {
  /**
   * Failed logins per account per window, from every address together (default 5). With `perAccountAndAddress`,
   * make it the higher backstop (say 50): it is the limit that anyone can reach on purpose to lock the account out.
   */
  perAccount?: number;
  /** Failed logins per address per window, all accounts together (default 50). */
  perAddress?: number;
  /**
   * Failed logins per account from one address per window (default: not counted). The owner's mistyped passwords
   * then lock only their own address out; an attacker elsewhere cannot lock them out with `perAccount` low. Where the
   * address is not known, all such tries of the account count as one address.
   * @example new LoginThrottle({ perAccountAndAddress: 5, perAccount: 50 })
   */
  perAccountAndAddress?: number;
  /** The window, in seconds (default 900: 15 minutes). */
  window?: number;
  /** The most keys kept in memory (default 100,000); see `MemoryThrottleStore`. Not used with a `store`. */
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
  /**
   * Adds one to `key`'s count, in a new window of `window` seconds when there is none, and answers the new count.
   * `limit` is the count at which the key is locked (its next try refused): a store that must forget live keys to
   * make room keeps those (`MemoryThrottleStore`); a store with room for every key may ignore it.
   */
  hit(key: string, window: number, limit?: number): Promise<ThrottleCount>;
  /** Takes one from `key`'s count (a try that should not have counted). */
  undo(key: string): Promise<void>;
  /** Forgets `key`. */
  delete(key: string): Promise<void>;
}

interface Count {
  count: number;
  /** When the window ends (ms). */
  until: number;
  /** The window, in seconds: which queue holds the key. */
  window: number;
  /** The count at which the key is locked; Infinity when `hit` was given none. */
  limit: number;
}

/**
 * The counts in this process's memory: the default store. At most `maxKeys` keys; when it is full, a new key takes
 * the place of a key whose window is over, else of the unlocked key whose window ends first. A locked key (its count
 * at its `limit`) is never forgotten for a new one: forgetting it would hand its guesses back. When every key kept is
 * locked, a new key is refused (answered past its limit) until the first window ends.
 * @example new LoginThrottle({ store: new MemoryThrottleStore(10_000) })
 */
export class MemoryThrottleStore implements ThrottleStore {
  readonly #counts = new Map<string, Count>();
  // The same keys, one queue per window length, in the order they came: the windows of a queue end in that order,
  // so its head is the first to end, found without a scan (LoginThrottle uses one window: one queue). Should the
  // clock step back, a head may end after a key behind it; that key is then found when it reaches the head.
  readonly #queues = new Map<number, Map<string, Count>>();
  // The keys under their limit, in the order they came: the ones that may make room for a new key.
  readonly #open = new Map<string, Count>();
  readonly #maxKeys: number;

  constructor(maxKeys = 100_000) {
    this.#maxKeys = Math.max(1, maxKeys);
  }

  // Synchronous inside: a burst of tries in one process is counted in call order. Each call does a constant amount
  // of work (times the number of window lengths in use): no scan of the keys.
  hit(key: string, window: number, limit = Infinity): Promise<ThrottleCount> {
    const now = Date.now();
    let count = this.#current(key, now);
    if (!count) {
      if (this.#counts.size >= this.#maxKeys && !this.#makeRoom(now)) {
        return Promise.resolve({ count: limit + 1, resetsIn: seconds(this.#firstEnd() - now) });
      }
      count = { count: 0, until: now + window * 1000, window, limit };
      this.#counts.set(key, count);
      let queue = this.#queues.get(window);
      if (!queue) this.#queues.set(window, (queue = new Map()));
      queue.set(key, count);
    }
    count.count++;
    count.limit = limit;
    this.#sort(key, count);
    return Promise.resolve({ count: count.count, resetsIn: seconds(count.until - now) });
  }

  undo(key: string): Promise<void> {
    const count = this.#current(key, Date.now());
    if (count && count.count > 0) {
      count.count--;
      this.#sort(key, count);
    }
    return Promise.resolve();
  }

  delete(key: string): Promise<void> {
    const count = this.#counts.get(key);
    if (count) this.#forget(key, count);
    return Promise.resolve();
  }

  #current(key: string, now: number): Count | undefined {
    const count = this.#counts.get(key);
    if (count && now >= count.until) {
      this.#forget(key, count);
      return undefined;
    }
    return count;
  }

  // A key at its limit is out of #open, so it is never the one that makes room.
  #sort(key: string, count: Count): void {
    if (count.count >= count.limit) this.#open.delete(key);
    else if (!this.#open.has(key)) this.#open.set(key, count);
  }

  // One place for a new key: a key whose window is over, else the open key that came first. False: all are locked.
  #makeRoom(now: number): boolean {
    for (const queue of this.#queues.values()) {
      const [key, count] = queue.entries().next().value!;
      if (now >= count.until) return (this.#forget(key, count), true);
    }
    const first = this.#open.entries().next();
    if (first.done) return false;
    this.#forget(...first.value);
    return true;
  }

  // When the first window of those kept ends (each queue's head is its first).
  #firstEnd(): number {
    let first = Infinity;
    for (const queue of this.#queues.values()) first = Math.min(first, queue.values().next().value!.until);
    return first;
  }

  #forget(key: string, count: Count): void {
    this.#counts.delete(key);
    this.#open.delete(key);
    const queue = this.#queues.get(count.window)!;
    queue.delete(key);
    if (queue.size === 0) this.#queues.delete(count.window);
  }
}

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

/** Counts failed logins; see the module comment. */
export class LoginThrottle {
  readonly #store: ThrottleStore;
  readonly #perAccount: number;
  readonly #perAddress: number;
  readonly #perPair: number | undefined;
  readonly #window: number;

  constructor(options: ThrottleOptions = {}) {
    this.#perAccount = options.perAccount ?? 5;
    this.#perAddress = options.perAddress ?? 50;
    this.#perPair = options.perAccountAndAddress;
    this.#window = options.window ?? 900;
    this.#store = options.store ?? new MemoryThrottleStore(options.maxKeys);
  }

  /**
   * Counts a login try of `account` from `address` (when known). Resolves to the seconds to wait when the address,
   * the account from that address, or the account is over its limit, else 0: go ahead and check the password.
   * @example await throttle.attempt('ada@example.com', '203.0.113.9') // → 0, and 900 on the sixth failed try
   */
  async attempt(account: string, address?: string): Promise<number> {
    // One key after the other, each awaited: a try refused by one key is counted on none after it.
    if (address !== undefined) {
      const wait = await this.#hit(addressKey(address), this.#perAddress);
      if (wait > 0) return wait;
    }
    if (this.#perPair !== undefined) {
      const wait = await this.#hit(pairKey(account, address), this.#perPair);
      if (wait > 0) return wait;
    }
    return this.#hit(accountKey(account), this.#perAccount);
  }

  /** The try was right: the account's counts are forgotten, and the address's try not counted. */
  async succeeded(account: string, address?: string): Promise<void> {
    await Promise.all([
      this.#store.delete(accountKey(account)),
      this.#perPair === undefined ? undefined : this.#store.delete(pairKey(account, address)),
      address === undefined ? undefined : this.#store.undo(addressKey(address)),
    ]);
  }

  async #hit(key: string, limit: number): Promise<number> {
    const { count, resetsIn } = await this.#store.hit(key, this.#window, limit);
    return count > limit ? resetsIn : 0;
  }
}

// One account, however its e-mail address is cased or padded.
const normal = (account: string) => account.trim().toLowerCase();
const accountKey = (account: string) => `account:${normal(account)}`;
const addressKey = (address: string) => `address:${address}`;
// JSON: no account text can make two pairs one key; an unknown address is null.
const pairKey = (account: string, address: string | undefined) =>
  `pair:${JSON.stringify([address ?? null, normal(account)])}`;
