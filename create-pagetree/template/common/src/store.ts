// The guestbook's entries, in memory: replace it with your database.

export interface Entry {
  id: number;
  name: string;
  message: string;
}

export class Guestbook {
  readonly #entries: Entry[] = [];
  #nextId = 1;

  /** Every entry, newest first. */
  entries(): Entry[] {
    return this.#entries.toReversed();
  }

  add(entry: Omit<Entry, 'id'>): Entry {
    const added = { id: this.#nextId++, ...entry };
    this.#entries.push(added);
    return added;
  }
}
