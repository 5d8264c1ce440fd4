import { type Database, lockUntilCommit } from '../../database';

/**
 * The organization's dialing lock, until the transaction ends: the dialer's claims take it,
 * and so do pause, cancel and delete, which therefore wait for a claim in progress and are
 * seen by every claim after them ("stops claims at once"). Claims never lock the batch row,
 * so attempts ending (callsCompleted) never wait for a claim.
 */
export function lockDialing(database: Database, organizationId: string): Promise<void> {
  return lockUntilCommit(database, 'switchboard.dialer', organizationId);
}
