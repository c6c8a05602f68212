// A page as a socket route: the page step (pipeline/dispatch.ts) hands an upgrade request here once props() ran.
//
//   class Chat { props(req) {…}  open(socket, props)  message(socket, data, props)  close(socket, code, reason, props) }
//   app = route('/chat', Chat)          → registers GET /chat (other methods: the mux's 405, Allow: GET, HEAD)
//
//   GET /chat, Upgrade: websocket, Origin of another site   → 403 (a WebSocket has no SameSite cookie protection)
//   GET /chat, Upgrade: websocket                           → props(req) once → upgradeAnswer: the adapter opens it
//   GET /chat, no Upgrade, Chat has page()                  → the page, as any page
//   GET /chat, no Upgrade, no page()                        → 426 Upgrade Required, Upgrade: websocket
//
// The page's socket methods run in the upgrade request's context (a copy: nothing they set reaches its answer), so
// urlFor, id() and currentRequest() work in them as in a page, and session() reads the upgrade request's cookies.

import { id, requestContext, type RequestContext } from '../request/context.ts';
import type { PageNode } from '../tree/page-node.ts';
import type { Logger } from '../kernel/logger.ts';
import { textError } from '../kernel/answer.ts';
import {
  isUpgrade,
  resolveSocketLimits,
  socketEndpoint,
  upgradeAnswer,
  type Socket,
  type SocketLimits,
} from './socket.ts';

/**
 * A page that is a socket route: `message` is what makes it one; `open` and `close` are optional. Each gets the
 * props its upgrade request's `props(req)` returned.
 * @example class Chat implements SocketPage<{ room: string }> { message(socket, data, props) { … } }
 */
export interface SocketPage<TProps = unknown> {
  open?(socket: Socket, props: TProps): unknown;
  message(socket: Socket, data: string, props: TProps): unknown;
  close?(socket: Socket, code: number, reason: string, props: TProps): unknown;
  /** This route's limits (live/socket.ts's defaults for the rest). */
  socketLimits?: SocketLimits;
}

/** What the page step keeps of a socket route, read once at mount. */
export interface SocketRoute {
  readonly node: PageNode;
  readonly logger: Logger;
  readonly limits: Required<SocketLimits>;
  /** Whether this request opens the socket (GET with Upgrade: websocket). */
  upgrade(req: Request): boolean;
}

/**
 * The socket route of a node, or undefined when its page has no `message()`; bad limits fail at mount.
 * @example socketRoute(node, logger)?.limits.maxMessage // → 65536
 */
export function socketRoute(node: PageNode, logger: Logger): SocketRoute | undefined {
  const page = node.page as Partial<SocketPage>;
  if (typeof page.message !== 'function') return undefined;
  const limits = resolveSocketLimits(page.socketLimits, node.fieldPath);
  return { node, logger, limits, upgrade: isUpgrade };
}

/**
 * The answer a socket route gives before props: 403 to an upgrade from another site's page, 426 to a plain request
 * when the page has no `page()` to show; undefined to go on.
 * @example socketRefusal(req, false) // → 426 for a GET without Upgrade
 */
export function socketRefusal(req: Request, hasPage: boolean): Response | undefined {
  if (!isUpgrade(req)) {
    if (hasPage) return undefined;
    return textError(426, 'Upgrade Required: this route is a WebSocket; open it with new WebSocket(url)', {
      upgrade: 'websocket',
      connection: 'Upgrade',
    });
  }
  const origin = req.headers.get('origin');
  // No Origin: not a browser (browsers always send one with a WebSocket), so no cookie was sent on a page's behalf.
  if (origin === null || sameHost(origin, req.url)) return undefined;
  return textError(403, `Forbidden: a WebSocket from another site's page (Origin ${origin})`);
}

function sameHost(origin: string, url: string): boolean {
  if (!URL.canParse(origin)) return false; // "null" (a sandboxed page, a file:) included
  return new URL(origin).host === new URL(url).host;
}

interface SocketMethods {
  open?: (socket: Socket, props: unknown) => unknown;
  message: (socket: Socket, data: string, props: unknown) => unknown;
  close?: (socket: Socket, code: number, reason: string, props: unknown) => unknown;
}

/**
 * The answer to an upgrade request once props ran: the endpoint whose connections call the page's methods with
 * `props`, in a copy of the request's context.
 * @example return socketAnswer(route.socket, props, ctx)
 */
export function socketAnswer(route: SocketRoute, props: unknown, ctx: RequestContext): Response {
  const page = route.node.page as SocketMethods;
  const own: RequestContext = { ...ctx, answer: undefined, trace: undefined, streamPlan: undefined, stream: undefined };
  const inContext = <R>(fn: () => R): R => requestContext.run(own, fn);
  const { open, message, close } = page;
  return upgradeAnswer(
    socketEndpoint(
      {
        name: `${route.node.fieldPath} (${route.node.pattern})`,
        logger: route.logger,
        open: open && ((socket) => inContext(() => open.call(page, socket, props))),
        message: (socket, data) => inContext(() => message.call(page, socket, data, props)),
        close: close && ((socket, code, reason) => inContext(() => close.call(page, socket, code, reason, props))),
        idOf: (target) => inContext(() => id(target)),
      },
      route.limits,
    ),
  );
}
