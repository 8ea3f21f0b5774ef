/** The SQLSTATE of a transaction PostgreSQL ended to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';

/**
 * Runs `transaction` again when PostgreSQL ends it to break a deadlock, up to `times` runs in all.
 * Only for a whole transaction whose function can run twice: it was rolled back, so nothing of the
 * first run stays. An import's chunk recounting the earlier leads that share its phones and a bulk
 * status change can lock two of the same leads in opposite orders; PostgreSQL ends one of them,
 * and without this a million-row import failed for it, or the user's change did.
 */
export async function retryOnDeadlock<T>(transaction: () => Promise<T>, times = 3): Promise<T> {
  for (let run = 1; ; run++) {
    try {
      return await transaction();
    } catch (error) {
      if (run >= times || (error as { code?: unknown } | null)?.code !== DEADLOCK_DETECTED) throw error;
    }
  }
}
