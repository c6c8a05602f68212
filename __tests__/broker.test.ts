// The broker under live regions (issue 27.1–27.3, in memory): MemoryBroker's topics, order, ids and endings; an
// EventHub that follows a topic renders each message once for all its streams, with the message's id; a client
// that comes back with Last-Event-ID gets what it missed, or one refresh event when that is no longer kept.

import { EventHub, MemoryBroker, Subscriptions, type Broker, type BrokerMessage } from '../core/index.ts';

async function take(iterable: AsyncIterable<BrokerMessage>, n: number): Promise<BrokerMessage[]> {
  const got: BrokerMessage[] = [];
  for await (const m of iterable) {
    got.push(m);
    if (got.length === n) break;
  }
  return got;
}

describe('MemoryBroker', () => {
  test('each subscriber of a topic gets its messages in order, with ids that grow per topic', async () => {
    const broker = new MemoryBroker();
    const ac = new AbortController();
    const a = take(broker.subscribe('tasks', ac.signal), 3);
    const b = take(broker.subscribe('tasks', ac.signal), 3);
    const other = take(broker.subscribe('users', ac.signal), 1);
    expect(await broker.publish('tasks', 'one')).toBe('1');
    await broker.publish('users', 'u');
    await broker.publish('tasks', 'two');
    await broker.publish('tasks');
    const want = [
      { id: '1', data: 'one' },
      { id: '2', data: 'two' },
      { id: '3', data: '' },
    ];
    expect(await a).toEqual(want);
    expect(await b).toEqual(want);
    expect(await other).toEqual([{ id: '1', data: 'u' }]);
    expect(broker.subscribers()).toBe(0); // breaking out of for await ends a subscription
  });

  test('aborting the signal ends the iteration; close() ends them all', async () => {
    const broker = new MemoryBroker();
    const ac = new AbortController();
    const ended = take(broker.subscribe('t', ac.signal), 10);
    await broker.publish('t', 'x');
    ac.abort();
    expect(await ended).toEqual([{ id: '1', data: 'x' }]);
    const open = take(broker.subscribe('t', new AbortController().signal), 10);
    expect(broker.subscribers('t')).toBe(1);
    await broker.close();
    expect(await open).toEqual([]);
    await expect(broker.publish('t')).rejects.toThrow('MemoryBroker: publish("t") after close()');
  });
});

/** An event stream answer as text, read event by event. */
function reader(res: Response) {
  const events = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  return {
    /** The next event (blank-line terminated), without the stream's first line or pings. */
    async next(): Promise<string> {
      for (;;) {
        const end = buffer.indexOf('\n\n');
        if (end !== -1) {
          const event = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = event.split('\n').filter((l) => l !== ': ok' && l !== ': ping' && !l.startsWith('retry:'));
          if (lines.length > 0) return lines.join('\n');
          continue;
        }
        const { value, done } = await events.read();
        if (done) return '(ended)';
        buffer += value;
      }
    },
    cancel: () => events.cancel(),
  };
}

const open = (hub: EventHub, lastEventId?: string) =>
  reader(
    hub.stream(
      new Request('http://localhost/events', { headers: lastEventId ? { 'last-event-id': lastEventId } : {} }),
      { heartbeat: 0 },
    ),
  );

describe('EventHub following a broker topic', () => {
  let broker: MemoryBroker;
  let renders: number;
  let hub: EventHub;
  beforeEach(() => {
    broker = new MemoryBroker();
    renders = 0;
    hub = new EventHub({
      broker,
      topic: 'tasks',
      render: (m) => (renders++, `<b>${m.data}</b>`),
      replay: { size: 3, age: 60 },
    });
  });
  afterEach(() => hub.close());

  test('a message is rendered once and every stream gets the same event, with its id', async () => {
    const streams = [open(hub), open(hub), open(hub)];
    await broker.publish('tasks', 'added');
    for (const s of streams) expect(await s.next()).toBe('id: 1\ndata: <b>added</b>');
    expect(renders).toBe(1);
    expect(broker.subscribers('tasks')).toBe(1); // one subscription for all the streams
  });

  test('a client back with Last-Event-ID gets the events it missed, then the live ones', async () => {
    const first = open(hub);
    await broker.publish('tasks', 'a');
    expect(await first.next()).toBe('id: 1\ndata: <b>a</b>');
    await first.cancel(); // the connection drops
    for (const title of ['b', 'c', 'd']) await broker.publish('tasks', title);
    const back = open(hub, '1');
    expect([await back.next(), await back.next(), await back.next()]).toEqual([
      'id: 2\ndata: <b>b</b>',
      'id: 3\ndata: <b>c</b>',
      'id: 4\ndata: <b>d</b>',
    ]);
    await broker.publish('tasks', 'e');
    expect(await back.next()).toBe('id: 5\ndata: <b>e</b>');
    expect(renders).toBe(5);
  });

  test('a gap older than what is kept, or an id it does not know, gets one refresh event', async () => {
    const first = open(hub);
    await broker.publish('tasks', 'a');
    await first.next();
    await first.cancel();
    for (const title of ['b', 'c', 'd', 'e']) await broker.publish('tasks', title); // 4 missed, 3 kept
    await new Promise((r) => setImmediate(r)); // the hub has rendered and kept them
    expect(await open(hub, '1').next()).toBe('event: refresh\nid: 5\ndata: refresh');
    expect(await open(hub, 'nonsense').next()).toBe('event: refresh\nid: 5\ndata: refresh');
    const current = open(hub, '5'); // up to date: nothing to replay
    await broker.publish('tasks', 'f');
    expect(await current.next()).toBe('id: 6\ndata: <b>f</b>');
  });

  test('with no stream open it keeps following for the replay age, then lets go (a later client gets a refresh)', async () => {
    jest.useFakeTimers({ doNotFake: ['queueMicrotask', 'nextTick', 'setImmediate'] });
    try {
      const first = open(hub);
      await broker.publish('tasks', 'a');
      await first.next();
      await first.cancel();
      await new Promise((r) => setImmediate(r));
      expect(broker.subscribers('tasks')).toBe(1);
      jest.advanceTimersByTime(60_000);
      await new Promise((r) => setImmediate(r));
      expect(broker.subscribers('tasks')).toBe(0);
      await broker.publish('tasks', 'b'); // nobody hears it
      expect(await open(hub, '1').next()).toBe('event: refresh\ndata: refresh');
    } finally {
      jest.useRealTimers();
    }
  });

  test('a render that fails is logged and skipped; the next message goes out', async () => {
    const failing = new EventHub({
      broker,
      topic: 'x',
      render: (m) => {
        if (m.data === 'bad') throw new Error('no');
        return m.data;
      },
    });
    const errors = jest.spyOn(console, 'error').mockImplementation(() => {});
    const s = open(failing);
    await broker.publish('x', 'bad');
    await broker.publish('x', 'good');
    expect(await s.next()).toBe('id: 2\ndata: good');
    expect(errors).toHaveBeenCalledWith('pagetree: EventHub could not render message 1 of x:', expect.any(Error));
    failing.close();
  });

  test('the broker closing ends the streams, so that the clients reconnect', async () => {
    const s = open(hub);
    await broker.close();
    expect(await s.next()).toBe('(ended)');
  });

  test('a gap from the broker (it reconnected) sends every stream one refresh and forgets what it kept', async () => {
    // A broker of one's own, on the bookkeeping the brokers share: its server came back, messages may be lost.
    const subscriptions = new Subscriptions();
    let id = 0;
    const flaky: Broker = {
      publish: async (topic, data = '') => (subscriptions.deliver(topic, { id: String(++id), data }), String(id)),
      subscribe: (topic, signal) => subscriptions.open(topic, signal),
      close: async () => subscriptions.end(),
    };
    const followed = new EventHub({ broker: flaky, topic: 'tasks', render: (m) => m.data });
    const streams = [open(followed), open(followed)];
    await flaky.publish('tasks', 'a');
    for (const s of streams) expect(await s.next()).toBe('id: 1\ndata: a');
    subscriptions.gap();
    for (const s of streams) expect(await s.next()).toBe('event: refresh\ndata: refresh');
    expect(await open(followed, '1').next()).toBe('event: refresh\ndata: refresh'); // 1 is no longer kept
    await flaky.publish('tasks', 'b');
    for (const s of streams) expect(await s.next()).toBe('id: 2\ndata: b');
    followed.close();
  });
});

describe('Subscriptions', () => {
  test('onFirst and onLast say when a topic starts and stops being listened to', async () => {
    const calls: string[] = [];
    const subs = new Subscriptions({ onFirst: (t) => calls.push(`+${t}`), onLast: (t) => calls.push(`-${t}`) });
    const a = new AbortController();
    const b = new AbortController();
    subs.open('tasks', a.signal);
    subs.open('tasks', b.signal);
    subs.open('users', a.signal);
    expect([calls, subs.count(), [...subs.topics()]]).toEqual([['+tasks', '+users'], 3, ['tasks', 'users']]);
    a.abort();
    expect(calls).toEqual(['+tasks', '+users', '-users']);
    b.abort();
    expect(calls).toEqual(['+tasks', '+users', '-users', '-tasks']);
    subs.end();
    const late = subs.open('tasks', new AbortController().signal)[Symbol.asyncIterator]();
    expect(await late.next()).toEqual({ value: undefined, done: true });
  });
});
