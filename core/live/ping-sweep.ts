// Idle pings for the sockets of one server (pagetree/node, pagetree/bun), one timer per idle time of their routes.
//
//   sweeps.add(socket, 30_000)   every 30 s: a socket that has not answered the last ping is terminated, the
//                                others pinged; the timer starts with the first socket of that idle time
//   sweeps.answered(socket)      its pong came
//   sweeps.delete(socket)        it closed; the timer stops with the last socket of its idle time
//
// One timer per idle time, not one per socket (a Timeout and its closure each, 5,000 of them for 5,000 sockets).
// A socket that opens between two sweeps gets its first ping at the next, so it is dropped no sooner than `idle` ms
// after an unanswered ping, as with a timer of its own, and no later than twice that after its last frame.

/** What a sweep does to a socket: the runtime's own ping and its hard close (1006 on the peer's side). */
export interface Pingable {
  ping(): void;
  terminate(): void;
}

/**
 * The ping sweeps of one server's sockets, one per idle time.
 * @example const pings = new PingSweeps<ServerWebSocket>(); open: pings.add(ws, limits.idle); pong: pings.answered(ws); close: pings.delete(ws)
 */
export class PingSweeps<S extends Pingable> {
  readonly #sweeps = new Map<number, Sweep<S>>();

  /** Pings `socket` every `idle` ms from now on (its first ping at the next sweep of that idle time). */
  add(socket: S, idle: number): void {
    let sweep = this.#sweeps.get(idle);
    if (!sweep) {
      sweep = new Sweep<S>(idle, () => this.#sweeps.delete(idle));
      this.#sweeps.set(idle, sweep);
    }
    sweep.add(socket);
  }

  /** `socket` answered (a pong): it is kept at the next sweep. */
  answered(socket: S): void {
    for (const sweep of this.#sweeps.values()) if (sweep.answered(socket)) return;
  }

  /** `socket` closed: no more pings; its idle time's timer stops with its last socket. */
  delete(socket: S): void {
    for (const sweep of this.#sweeps.values()) if (sweep.delete(socket)) return;
  }
}

// The sockets of one idle time and their timer.
class Sweep<S extends Pingable> {
  /** Each socket, and whether it has answered since the last sweep pinged it. */
  readonly #answered = new Map<S, boolean>();
  readonly #idle: number;
  readonly #onEmpty: () => void;
  #timer: ReturnType<typeof setInterval> | undefined;

  constructor(idle: number, onEmpty: () => void) {
    this.#idle = idle;
    this.#onEmpty = onEmpty;
  }

  add(socket: S): void {
    this.#answered.set(socket, true);
    if (this.#timer === undefined) {
      this.#timer = setInterval(() => this.#sweep(), this.#idle);
      (this.#timer as { unref?: () => void }).unref?.(); // the sockets keep the process alive, not their pings
    }
  }

  answered(socket: S): boolean {
    if (!this.#answered.has(socket)) return false;
    this.#answered.set(socket, true);
    return true;
  }

  delete(socket: S): boolean {
    if (!this.#answered.delete(socket)) return false;
    if (this.#answered.size === 0) {
      clearInterval(this.#timer);
      this.#timer = undefined;
      this.#onEmpty();
    }
    return true;
  }

  #sweep(): void {
    for (const [socket, answered] of this.#answered) {
      // terminate() reports the close later (the runtime's close event): its entry goes then, not during this loop.
      if (!answered) socket.terminate();
      else {
        this.#answered.set(socket, false);
        socket.ping();
      }
    }
  }
}
