import { sql } from 'drizzle-orm';
import type { Database } from '../../database';

/**
 * The organization's dialing lock, until the transaction ends: the dialer's claims take it,
 * and so do pause, cancel and delete, which therefore wait for a claim in progress and are
 * seen by every claim after them ("stops claims at once"). Claims never lock the batch row,
 * so attempts ending (callsCompleted) never wait for a claim.
 */
export async function lockDialing(database: Database, organizationId: string): Promise<void> {
  await database.db.execute(
    sql`SELECT pg_advisory_xact_lock(hashtext('switchboard.dialer'), hashtext(${organizationId}))`,
  );
}
