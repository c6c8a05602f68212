// composePath is path.posix.join with a trailing slash dropped, written out so that a worker bundle and the lint
// plugin need no node:path. The two agree on random paths built from the pieces that normalization treats
// specially (empty, ".", "..", wildcards), relative ones included.

import { posix } from 'node:path';
import fc from 'fast-check';
import { composePath } from '../../core/tree/route.ts';

const segment = fc.constantFrom('', '.', '..', 'a', 'b', '{x}', '{$}', '{rest...}', 'host.example');
const path = fc.array(segment, { maxLength: 6 }).map((segments) => segments.join('/'));

function referenceCompose(parent: string, own: string): string {
  const joined = posix.join(parent || '/', own);
  return joined.length > 1 && joined.endsWith('/') ? joined.slice(0, -1) : joined;
}

test('composePath agrees with path.posix.join, trailing slash dropped', () => {
  fc.assert(
    fc.property(
      fc.oneof(
        path,
        path.map((p) => '/' + p),
      ),
      path,
      (parent, own) => {
        expect(composePath(parent, own)).toBe(referenceCompose(parent, own));
      },
    ),
    { numRuns: 5_000 },
  );
});
