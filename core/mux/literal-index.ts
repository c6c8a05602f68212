// The literal children of a routing node, found from a segment of the request
// path in place, without slicing it out. Keys are kept sorted by length, and
// `from` says where each length starts:
//
//   keys  ["git", "pulls", "hooks", "issues"]      (children of "/repos/{o}/{r}")
//   from  [0, 0, 0, 0, 1, 3, 4]                    length 5 → keys[1..3), length 7+ → none
//
// A lookup is two array reads and a startsWith per key of the segment's
// length. A Map would need the segment as a string: slicing each segment of a
// hit was 17% of its time, and a plain scan of the 22 children above made
// misses ~25% slower than the Map (bench/router, --cpu-prof).

export class LiteralIndex<TValue> {
  #keys: string[] = [];
  #values: TValue[] = [];
  // from[len] is the index of the first key of that length; from[maxLength + 1] is keys.length.
  #from: number[] = [0];

  /** The value for a key, at registration. */
  get(key: string): TValue | undefined {
    const k = this.#keys.indexOf(key);
    return k < 0 ? undefined : this.#values[k];
  }

  /** Adds a key that is not there yet. */
  add(key: string, value: TValue): void {
    let k = this.#keys.length;
    while (k > 0 && this.#keys[k - 1]!.length > key.length) k--;
    this.#keys.splice(k, 0, key);
    this.#values.splice(k, 0, value);
    const from: number[] = [];
    for (let i = 0, len = 0; len <= this.#keys[this.#keys.length - 1]!.length + 1; len++) {
      while (i < this.#keys.length && this.#keys[i]!.length < len) i++;
      from.push(i);
    }
    this.#from = from;
  }

  /** The value whose key is path[start, start + len), or undefined. */
  find(path: string, start: number, len: number): TValue | undefined {
    const from = this.#from;
    if (len + 1 >= from.length) return undefined;
    const end = from[len + 1]!;
    const keys = this.#keys;
    // Compared by char code, not path.startsWith(key, start): the builtin call cost more than the compare
    // itself, ~45% of a search's time (--cpu-prof line ticks).
    for (let k = from[len]!; k < end; k++) {
      const key = keys[k]!;
      let j = 0;
      while (j < len && path.charCodeAt(start + j) === key.charCodeAt(j)) j++;
      if (j === len) return this.#values[k];
    }
    return undefined;
  }

  /** The value whose key is seg (an unescaped segment), or undefined. */
  findSegment(seg: string): TValue | undefined {
    const from = this.#from;
    if (seg.length + 1 >= from.length) return undefined;
    const end = from[seg.length + 1]!;
    for (let k = from[seg.length]!; k < end; k++) if (this.#keys[k] === seg) return this.#values[k];
    return undefined;
  }
}
