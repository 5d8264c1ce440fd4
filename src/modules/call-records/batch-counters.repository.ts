import { Injectable } from '@nestjs/common';
import { and, eq, sql } from 'drizzle-orm';
import { Database, type Gathering } from '../../database';
import { BatchesRepository } from '../batches/batches.repository';
import { batches, type StatusReason } from '../batches/batches.schema';
import { batchStatusCounts } from './call-records.schema';

/**
 * The statement that moves a batch's per-status counters, in the order of their keys: every
 * writer takes the counter rows in one order, so two transactions never wait for each other in
 * a cycle. One statement: PostgreSQL upserts the rows of a VALUES list one after another, in its
 * order. Undefined when nothing moves. The claim runs it inside its one write statement.
 */
export function countMovesUpsert(
  db: Database['db'],
  batchId: string,
  deltas: Record<string, number>,
) {
  const rows = Object.keys(deltas)
    .sort()
    .filter((callStatus) => deltas[callStatus] !== 0)
    .map((callStatus) => ({ batchId, callStatus, count: deltas[callStatus] }));
  if (rows.length === 0) return undefined;
  return db
    .insert(batchStatusCounts)
    .values(rows)
    .onConflictDoUpdate({
      target: [batchStatusCounts.batchId, batchStatusCounts.callStatus],
      set: { count: sql`${batchStatusCounts.count} + excluded.count` },
    });
}

/** What one transaction moves on one batch. */
interface BatchMoves {
  organizationId: string;
  statuses: Record<string, number>;
  callsPicked: number;
  callsCompleted: number;
  /** A record of the batch closed: complete the batch if nothing is left to place. */
  mayBeDone: boolean;
  /** Pause the batch, if still active, with this reason (the breaker). */
  pause: StatusReason | null;
}

/**
 * A batch's counters as attempts move: the per-status counts (batch_status_counts), callsPicked
 * and callsCompleted on the batch row, the batch's completion when its last record closes, and the breaker's pause.
 * Every attempt that ends writes these few rows of its batch, so many transactions at once want
 * them (callbacks arriving together, several workers): the moves are gathered and written at
 * the end of the transaction (Database.gatherUntilCommit), which then holds those rows for its
 * last statements and the commit only, instead of from its first move to its commit. Always in
 * one order, batches by id and for each its counters, then its row, then the completion check:
 * the order of the claim's own writes (counters in its write statement, then completeIfDone).
 */
@Injectable()
export class BatchCountersRepository {
  private readonly gathering: Gathering<Map<string, BatchMoves>> = {
    create: () => new Map(),
    write: (moves) => this.write(moves),
  };

  constructor(
    private readonly database: Database,
    private readonly batches: BatchesRepository,
  ) {}

  /** Moves the batch's per-status counters at the commit (inside a transaction). */
  moveStatuses(organizationId: string, batchId: string, deltas: Record<string, number>): void {
    const moves = this.movesOf(organizationId, batchId);
    for (const [callStatus, delta] of Object.entries(deltas))
      moves.statuses[callStatus] = (moves.statuses[callStatus] ?? 0) + delta;
  }

  /** Moves callsPicked (records with an answered attempt) at the commit. */
  addCallsPicked(organizationId: string, batchId: string, delta: number): void {
    this.movesOf(organizationId, batchId).callsPicked += delta;
  }

  /** Counts a completed record at the commit. */
  addCallsCompleted(organizationId: string, batchId: string): void {
    this.movesOf(organizationId, batchId).callsCompleted += 1;
  }

  /**
   * Pauses the batch at the commit if it is still active. With the counters, so that a
   * transaction locks the batch row after its counter rows, as every other writer does.
   */
  pauseAtCommit(organizationId: string, batchId: string, reason: StatusReason): void {
    this.movesOf(organizationId, batchId).pause = reason;
  }

  /** Completes the batch at the commit if nothing is left to place (completeIfDone). */
  completeIfDoneAtCommit(organizationId: string, batchId: string): void {
    this.movesOf(organizationId, batchId).mayBeDone = true;
  }

  private movesOf(organizationId: string, batchId: string): BatchMoves {
    const all = this.database.gatherUntilCommit(this.gathering);
    let moves = all.get(batchId);
    if (!moves) {
      moves = {
        organizationId,
        statuses: {},
        callsPicked: 0,
        callsCompleted: 0,
        mayBeDone: false,
        pause: null,
      };
      all.set(batchId, moves);
    }
    return moves;
  }

  private async write(all: Map<string, BatchMoves>): Promise<void> {
    const db = this.database.db;
    for (const batchId of [...all.keys()].sort()) {
      const moves = all.get(batchId)!;
      const upsert = countMovesUpsert(db, batchId, moves.statuses);
      if (upsert) await upsert;
      if (moves.callsPicked !== 0 || moves.callsCompleted !== 0 || moves.pause) {
        const active = sql`${batches.queueStatus} = 'active'`;
        await db
          .update(batches)
          .set({
            callsPicked: sql`${batches.callsPicked} + ${moves.callsPicked}`,
            callsCompleted: sql`${batches.callsCompleted} + ${moves.callsCompleted}`,
            ...(moves.pause
              ? {
                  queueStatus: sql`CASE WHEN ${active} THEN 'paused' ELSE ${batches.queueStatus} END`,
                  statusReason: sql`CASE WHEN ${active} THEN ${moves.pause} ELSE ${batches.statusReason} END`,
                }
              : {}),
          })
          .where(and(eq(batches.organizationId, moves.organizationId), eq(batches.id, batchId)));
      }
      if (moves.mayBeDone) await this.batches.completeIfDone(moves.organizationId, batchId);
    }
  }
}
