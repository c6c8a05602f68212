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
    'crossOriginProtection',
    'currentPage',
    'defaultErrorHandler',
    'id',
    'idTarget',
    'liveReload',
    'mount',
    'redirect',
    'renderComponent',
    'route',
    'setHeader',
    'setStatus',
    'staticFiles',
    'staticUrl',
    'urlFor',
  ]);
});

test('the public names of pagetree/node', () => {
  expect(Object.keys(node).sort()).toEqual(['serve', 'shutdown', 'toNodeListener']);
});
