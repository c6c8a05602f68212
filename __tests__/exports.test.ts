import * as pagetree from '../core/index.ts';
import * as node from '../core/node/index.ts';

// An accidental export shows up here in review.
test('the public names of pagetree', () => {
  expect(Object.keys(pagetree).sort()).toEqual([
    'ConflictError',
    'CrossOriginProtection',
    'HttpError',
    'MountError',
    'PatternError',
    'ServeMux',
    'UrlForError',
    'alsoRender',
    'crossOriginProtection',
    'currentPage',
    'currentRequest',
    'defaultErrorHandler',
    'deleteCookie',
    'eventStream',
    'flash',
    'formState',
    'getCookie',
    'getCookies',
    'getSignedCookie',
    'htmxDetails',
    'htmxRequest',
    'hxLocation',
    'hxPushUrl',
    'hxRedirect',
    'hxRefresh',
    'hxReplaceUrl',
    'hxReselect',
    'hxReswap',
    'hxRetarget',
    'hxTrigger',
    'id',
    'idTarget',
    'liveReload',
    'mount',
    'parseForm',
    'redirect',
    'renderComponent',
    'route',
    'setCookie',
    'setHeader',
    'setSignedCookie',
    'setStatus',
    'staticFiles',
    'staticUrl',
    'stopPolling',
    'takeFlash',
    'urlFor',
  ]);
});

test('the public names of pagetree/node', () => {
  expect(Object.keys(node).sort()).toEqual(['serve', 'shutdown', 'toNodeListener']);
});
