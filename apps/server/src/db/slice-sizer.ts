/**
 * How much the next slice of bulk work takes (an import's chunk of rows, a count's range of leads).
 * On the embedded database the longest a person's request waits behind bulk work is its longest
 * hold of the one connection (decision 013), so there the size follows the measured hold instead
 * of a guess.
 */
export interface SliceSizer {
  /** Rows (or ids) for the next slice. */
  size(): number;
  /** A slice of `rows` held the connection for `ms`. */
  held(rows: number, ms: number): void;
}

/** The same size every time (PostgreSQL, where each slice has a connection of its own; or set by configuration). */
export function fixedSlices(rows: number): SliceSizer {
  return { size: () => rows, held: () => {} };
}

export interface HeldSlicesOptions {
  /** The hold each slice aims at. */
  targetMs: number;
  /** The first slice's size, before anything is measured. */
  first: number;
  /** Below this each slice's fixed work (an import chunk's row, recount, tallies) costs more than it buys. */
  min: number;
  max: number;
}

/**
 * Sizes each slice from the rows per millisecond the slices before it achieved, toward `targetMs`.
 * The rate is smoothed (a single slice slowed by a busy moment does not halve the next one), a
 * slice that overshot shrinks the next at once, and growth is at most ×1.5 a slice, so one that
 * ran fast on a quiet moment does not make the next one long on a busy one.
 */
export function heldSlices(o: HeldSlicesOptions): SliceSizer {
  let size = o.first;
  let rate: number | undefined;
  return {
    size: () => size,
    held(rows, ms) {
      if (rows <= 0) return;
      const measured = rows / Math.max(ms, 1);
      rate = rate === undefined ? measured : 0.5 * rate + 0.5 * measured;
      // Over the target: size from this slice's own rate, whatever the smoothed one says.
      const basis = ms > o.targetMs ? Math.min(rate, measured) : rate;
      const ideal = Math.round(basis * o.targetMs);
      size = Math.max(o.min, Math.min(o.max, Math.round(size * 1.5), ideal));
    },
  };
}
