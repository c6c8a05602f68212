// The few members of workerd's API that pagetree/cloudflare uses, declared here so that the package needs no
// @cloudflare/workers-types (a Worker's own project has them, and its real objects fit these shapes).
//
//   const pair = new WebSocketPair()              { 0: client, 1: server }
//   ctx.acceptWebSocket(server)                    the object holds the socket; its events come as webSocketMessage…
//   server.serializeAttachment({ url, headers })   kept with the socket while the object hibernates (at most 2 KiB)
//   ctx.getWebSockets()                            the accepted sockets, after a hibernation too
//   new Response(null, { status: 101, webSocket: client })

/** A WebSocket as workerd gives a Durable Object: the server end of a WebSocketPair. */
export interface WorkerdWebSocket {
  send(data: string | ArrayBuffer | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  /** Keeps a structured-clonable value with the socket, across hibernation (workerd keeps at most 2,048 bytes). */
  serializeAttachment(value: unknown): void;
  deserializeAttachment(): unknown;
  /** Bytes sent and not yet written to the network (workerd has it; a runtime without it reads as 0). */
  readonly bufferedAmount?: number;
}

/** The `ctx` (DurableObjectState) a Durable Object's constructor gets: the hibernation API's part of it. */
export interface DurableObjectContext {
  /** The object's id (its `toString()` is the same for every instance of the object). */
  readonly id: { toString(): string };
  /** Takes the server end of a pair: its events go to the object's webSocketMessage / webSocketClose methods. */
  acceptWebSocket(ws: WorkerdWebSocket, tags?: string[]): void;
  /** Every socket the object accepted and that is still open, including those accepted before it hibernated. */
  getWebSockets(tag?: string): WorkerdWebSocket[];
}

/** A Durable Object binding (`env.SOCKETS`): an id from a name, and the stub to send it a request. */
export interface DurableObjectBinding {
  idFromName(name: string): unknown;
  get(id: never): { fetch(req: Request): Promise<Response> };
}

/** workerd's WebSocketPair: a client end to answer with, a server end to keep. */
export interface WebSocketPairConstructor {
  new (): { 0: WorkerdWebSocket; 1: WorkerdWebSocket };
}
