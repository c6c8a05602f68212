// Conditional and range requests against one representation: what static files and sendFile answer alike.
//
//   If-None-Match: "abc"            → notModified(): 304 when it names the ETag (If-Modified-Since otherwise)
//   Range: bytes=0-99               → requestedRange(): [0, 99], or 'invalid' / 'unsatisfiable' (416), or null (all)
//   If-Range: "abc"                 → the range only while the representation is still that one

/** What the conditions are checked against: the size of the bytes, their strong ETag and Last-Modified date. */
export interface Entity {
  size: number;
  etag: string | null;
  lastModified: string | null;
}

// The single byte range a GET or HEAD asks for, as [first, last] (inclusive),
// or null to send the whole file: no Range, a condition in If-Range that no
// longer holds, an empty file, or several ranges (answered whole, which RFC
// 9110 allows, instead of multipart/byteranges). A header that does not parse
// is 'invalid' and one past the end 'unsatisfiable' (416, as Go's ServeContent).
export function requestedRange(
  headers: Headers,
  entity: Entity,
): [number, number] | 'invalid' | 'unsatisfiable' | null {
  const header = headers.get('range');
  if (header === null) return null;
  const size = entity.size;
  if (size === 0 || !ifRangeHolds(headers.get('if-range'), entity)) return null;
  if (!header.startsWith('bytes=')) return 'invalid';
  let found: [number, number] | null = null;
  let count = 0;
  let pastEnd = false;
  for (const spec of header.slice(6).split(',')) {
    const r = spec.trim();
    if (r === '') continue;
    const dash = r.indexOf('-');
    if (dash < 0) return 'invalid';
    const first = r.slice(0, dash).trim();
    const last = r.slice(dash + 1).trim();
    if (first === '') {
      // "-n": the last n bytes.
      if (!/^\d+$/.test(last)) return 'invalid';
      const n = Number(last);
      if (n === 0) {
        pastEnd = true;
        continue;
      }
      found = [Math.max(0, size - n), size - 1];
    } else {
      if (!/^\d+$/.test(first) || (last !== '' && !/^\d+$/.test(last))) return 'invalid';
      const start = Number(first);
      if (last !== '' && Number(last) < start) return 'invalid';
      if (start >= size) {
        pastEnd = true;
        continue;
      }
      found = [start, last === '' ? size - 1 : Math.min(Number(last), size - 1)];
    }
    count++;
  }
  if (count === 0) return pastEnd ? 'unsatisfiable' : 'invalid';
  return count === 1 ? found : null;
}

// If-Range: the range applies only if the file is still the one the client
// has: the same strong ETag, or exactly its Last-Modified date.
function ifRangeHolds(ifRange: string | null, entity: Entity): boolean {
  if (ifRange === null) return true;
  const v = ifRange.trim();
  if (v.startsWith('"')) return v === entity.etag;
  if (v.startsWith('W/')) return false; // weak validators never match (strong comparison)
  return entity.lastModified !== null && v === entity.lastModified;
}

// If-None-Match wins over If-Modified-Since (RFC 9110 13.2.2).
export function notModified(headers: Headers, etag: string | null, lastModified: string | null): boolean {
  const inm = headers.get('if-none-match');
  if (inm !== null) {
    return etag !== null && (inm.trim() === '*' || inm.split(',').some((t) => t.trim().replace(/^W\//, '') === etag));
  }
  const ims = headers.get('if-modified-since');
  if (ims === null || lastModified === null) return false;
  const since = Date.parse(ims);
  return !Number.isNaN(since) && Date.parse(lastModified) <= since;
}
