// pagetree/live: pages that change while they are open. Event streams (eventStream) fed by a hub (EventHub) that
// reaches every instance of the app through a broker (MemoryBroker here; PostgresBroker, RedisBroker in
// pagetree/postgres and pagetree/redis), and the dev loop's liveReload.
//
//   import { EventHub, MemoryBroker } from 'pagetree/live';

export { EventHub, eventStream, type EventStream, type EventStreamOptions, type HubFeed } from './event-stream.ts';
export { MemoryBroker, Subscriptions, type Broker, type BrokerMessage } from './broker.ts';
export { liveReload } from './live-reload.ts';
export { SocketHub, type SocketFeed } from './socket-hub.ts';
export { parseMessage, type MessageResult } from './socket-message.ts';
export type { SocketPage } from './socket-route.ts';
export type { SendOptions, Socket, SocketLimits, SocketRegion, RegionTarget } from './socket.ts';
