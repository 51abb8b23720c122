/**
 * A bounded history: the newest `capacity` entries in insertion order, older ones dropped. The
 * console keeps everything it shows in these, so its memory has a ceiling however long it runs.
 */
export class Ring<T> {
  private readonly items: T[] = [];
  private start = 0;
  /** Entries pushed out since the ring was made. */
  dropped = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1)
      throw new RangeError(`ring capacity must be a positive integer, not ${capacity}`);
  }

  get size(): number {
    return this.items.length;
  }

  /** Adds `item`; returns the entry it pushed out, if the ring was full. */
  push(item: T): T | undefined {
    if (this.items.length < this.capacity) {
      this.items.push(item);
      return undefined;
    }
    const old = this.items[this.start] as T;
    this.items[this.start] = item;
    this.start = (this.start + 1) % this.capacity;
    this.dropped++;
    return old;
  }

  /** Oldest first. */
  values(): T[] {
    return [...this.items.slice(this.start), ...this.items.slice(0, this.start)];
  }

  /** The newest entry. */
  last(): T | undefined {
    if (this.items.length === 0) return undefined;
    return this.items[(this.start + this.items.length - 1) % this.items.length];
  }

  /** The newest entry that matches, searching from the newest back. */
  findLast(match: (item: T) => boolean): T | undefined {
    for (let i = this.items.length - 1; i >= 0; i--) {
      const item = this.items[(this.start + i) % this.items.length] as T;
      if (match(item)) return item;
    }
    return undefined;
  }
}
