// The guestbook's entries, in memory: replace it with your database.

export interface Entry {
  name: string;
  message: string;
}

export class Guestbook {
  readonly #entries: Entry[] = [];

  entries(): Entry[] {
    return [...this.#entries].reverse();
  }

  add(entry: Entry): void {
    this.#entries.push(entry);
  }
}
