/**
 * The oldest key of a Map used as an age-ordered list (insertion order), for evicting one entry at a time.
 * Asking the Map for its first key anew walks every slot its deletions left at the front until its next
 * rehash — about 10 µs per eviction once ten thousand entries are held — while one kept walk passes each slot
 * once. Correct as long as every key the walk returns is deleted before the next call.
 */
export class OldestKey<K> {
  readonly #map: Map<K, unknown>;
  #walk: Iterator<K>;

  constructor(map: Map<K, unknown>) {
    this.#map = map;
    this.#walk = map.keys();
  }

  /** The oldest key still in the map, or undefined when it is empty. */
  next(): K | undefined {
    let step = this.#walk.next();
    // A walk that reached the end stays ended: keys set after that need a new one.
    if (step.done) {
      this.#walk = this.#map.keys();
      step = this.#walk.next();
    }
    return step.done ? undefined : step.value;
  }
}
