// PingSweeps (pagetree/adapter), the idle pings pagetree/node and pagetree/bun share: one timer per idle time, a
// socket that has not answered the last ping terminated at the next sweep, the timer gone with the last socket.

import { PingSweeps } from '../../core/adapter.ts';

/** A socket as a sweep sees it, with what the sweep did to it. */
function fakeSocket() {
  return {
    pings: 0,
    terminated: false,
    ping() {
      this.pings++;
    },
    terminate() {
      this.terminated = true;
    },
  };
}

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

test('a socket that answers is pinged each idle period; one that does not is terminated at the next sweep', () => {
  const sweeps = new PingSweeps<ReturnType<typeof fakeSocket>>();
  const [good, silent] = [fakeSocket(), fakeSocket()];
  sweeps.add(good, 1000);
  sweeps.add(silent, 1000);
  jest.advanceTimersByTime(1000);
  expect([good.pings, silent.pings]).toEqual([1, 1]);
  sweeps.answered(good);
  jest.advanceTimersByTime(1000);
  expect([good.pings, good.terminated, silent.pings, silent.terminated]).toEqual([2, false, 1, true]);
});

test('one timer per idle time, each at its own period, and none once the last socket of it is gone', () => {
  const sweeps = new PingSweeps<ReturnType<typeof fakeSocket>>();
  const [fast, slow, other] = [fakeSocket(), fakeSocket(), fakeSocket()];
  sweeps.add(fast, 1000);
  sweeps.add(slow, 5000);
  sweeps.add(other, 1000);
  expect(jest.getTimerCount()).toBe(2);
  jest.advanceTimersByTime(1000);
  expect([fast.pings, other.pings, slow.pings]).toEqual([1, 1, 0]);
  sweeps.delete(fast);
  expect(jest.getTimerCount()).toBe(2); // `other` still has the 1-s sweep
  sweeps.delete(other);
  sweeps.delete(slow);
  expect(jest.getTimerCount()).toBe(0);
  sweeps.delete(slow); // a socket closed twice, or one never added: nothing
  sweeps.answered(fakeSocket());
  expect(jest.getTimerCount()).toBe(0);
});

test('a socket terminated during a sweep (its close reported at once, as Bun does) leaves it without a skip', () => {
  const sweeps = new PingSweeps<ReturnType<typeof fakeSocket>>();
  const sockets = [fakeSocket(), fakeSocket(), fakeSocket()];
  for (const s of sockets) {
    s.terminate = () => {
      s.terminated = true;
      sweeps.delete(s); // the runtime's close handler, inside terminate()
    };
    sweeps.add(s, 1000);
  }
  jest.advanceTimersByTime(1000); // every socket pinged once
  sweeps.answered(sockets[1]!);
  jest.advanceTimersByTime(1000); // the two silent ones terminated, the other pinged again
  expect(sockets.map((s) => [s.pings, s.terminated])).toEqual([
    [1, true],
    [2, false],
    [1, true],
  ]);
  sweeps.delete(sockets[1]!);
  expect(jest.getTimerCount()).toBe(0);
});
