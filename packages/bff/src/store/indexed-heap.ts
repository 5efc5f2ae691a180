/**
 * @module
 * A binary min-heap of keys by a numeric priority, indexed by key so that a key's priority can be changed or the
 * key removed in O(log n): the memory store's work queues are built on it. Equal priorities come out in the order
 * their keys were first put in.
 */

interface HeapEntry<K> {
  key: K;
  priority: number;
  /** Tie-break: the order keys were put in. */
  sequence: number;
}

/** Keys ordered by priority, lowest first. */
export class IndexedHeap<K> {
  readonly #entries: HeapEntry<K>[] = [];
  readonly #positions = new Map<K, number>();
  #sequence = 0;

  get size(): number {
    return this.#entries.length;
  }

  /** The key with the lowest priority and that priority, without taking it out. */
  peek(): { key: K; priority: number } | undefined {
    const top = this.#entries[0];
    return top === undefined ? undefined : { key: top.key, priority: top.priority };
  }

  /** The priority of `key`, or undefined when it is not in the heap. */
  priorityOf(key: K): number | undefined {
    const position = this.#positions.get(key);
    return position === undefined ? undefined : this.#entries[position]?.priority;
  }

  /** Put `key` in with `priority`, or move it there when it is in already. */
  set(key: K, priority: number): void {
    const position = this.#positions.get(key);
    if (position === undefined) {
      this.#entries.push({ key, priority, sequence: this.#sequence++ });
      this.#positions.set(key, this.#entries.length - 1);
      this.#up(this.#entries.length - 1);
      return;
    }
    const entry = this.#at(position);
    const before = entry.priority;
    entry.priority = priority;
    if (priority < before) this.#up(position);
    else this.#down(position);
  }

  /** Take `key` out; false when it was not in. */
  delete(key: K): boolean {
    const position = this.#positions.get(key);
    if (position === undefined) return false;
    this.#positions.delete(key);
    const last = this.#entries.pop() as HeapEntry<K>;
    if (position < this.#entries.length) {
      this.#entries[position] = last;
      this.#positions.set(last.key, position);
      this.#up(position);
      this.#down(this.#positions.get(last.key) as number);
    }
    return true;
  }

  /** Take the lowest key out and answer it. */
  pop(): { key: K; priority: number } | undefined {
    const top = this.peek();
    if (top !== undefined) this.delete(top.key);
    return top;
  }

  clear(): void {
    this.#entries.length = 0;
    this.#positions.clear();
  }

  #at(position: number): HeapEntry<K> {
    return this.#entries[position] as HeapEntry<K>;
  }

  #before(a: number, b: number): boolean {
    const left = this.#at(a);
    const right = this.#at(b);
    return (
      left.priority < right.priority || (left.priority === right.priority && left.sequence < right.sequence)
    );
  }

  #swap(a: number, b: number): void {
    const left = this.#at(a);
    const right = this.#at(b);
    this.#entries[a] = right;
    this.#entries[b] = left;
    this.#positions.set(right.key, a);
    this.#positions.set(left.key, b);
  }

  #up(start: number): void {
    let position = start;
    while (position > 0) {
      const parent = (position - 1) >> 1;
      if (!this.#before(position, parent)) return;
      this.#swap(position, parent);
      position = parent;
    }
  }

  #down(start: number): void {
    let position = start;
    const count = this.#entries.length;
    for (;;) {
      const left = position * 2 + 1;
      const right = left + 1;
      let lowest = position;
      if (left < count && this.#before(left, lowest)) lowest = left;
      if (right < count && this.#before(right, lowest)) lowest = right;
      if (lowest === position) return;
      this.#swap(position, lowest);
      position = lowest;
    }
  }
}
