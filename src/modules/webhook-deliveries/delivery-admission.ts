/**
 * An endpoint is slow while one of its attempts has held a connection longer than this, or
 * while its recent service time (connection held until the answer, without the wait for a
 * free socket) averages more than this.
 */
export const SLOW_SERVICE_MS = 1_000;
/** Attempts a slow webhook may have in flight in one worker... */
export const SLOW_WEBHOOK_CAP = 8;
/** ...and all the slow webhooks of one organization together. */
export const SLOW_ORGANIZATION_CAP = 32;
/**
 * Backstops for any webhook and organization, slow or not (yet): the share of the worker's 800
 * delivery slots one of them may hold before it is known to be slow (a backlog to an endpoint
 * that just stopped answering would take them all within the first second). Raised to what it
 * answered in the last second or two, so a fast endpoint with a queue at its sockets (a
 * saturated box: 200 were reached in the drain benchmark) keeps what it needs.
 */
export const WEBHOOK_CAP = 200;
export const ORGANIZATION_CAP = 400;
/** Answers are counted in buckets of this length; the current and the previous one count. */
const ANSWER_BUCKET_MS = 1_000;
/** A deferred attempt comes back after this long at least... */
export const MIN_DEFER_MS = 250;
/** ...and at most (then it is admitted or deferred again). */
export const MAX_DEFER_MS = 30_000;
/** Weight of the newest attempt in an endpoint's running average of service time. */
const SERVICE_EWMA_WEIGHT = 0.2;
/** Idle state older than this is dropped (a slow webhook is then presumed fast again). */
const IDLE_FORGET_MS = 5 * 60_000;

/** Attempts answered (connection held under SLOW_SERVICE_MS) in the last one or two buckets. */
interface RecentAnswers {
  bucket: number;
  current: number;
  previous: number;
}

interface WebhookState extends RecentAnswers {
  inFlight: number;
  /** Running average of service time, ms (0 until an attempt has been answered). */
  serviceMs: number;
  /** Attempts holding a connection, oldest first; ended ones are dropped from the front. */
  connected: Slot[];
  /** When the last deferred attempt was told to come back: a virtual queue behind the slots. */
  deferredUntil: number;
  lastUsedMs: number;
}

interface OrganizationState extends RecentAnswers {
  inFlight: number;
  /** Of those, attempts to webhooks that were slow when admitted. */
  slowInFlight: number;
}

/** One admitted attempt: give it back with release(). */
export interface Slot {
  readonly webhook: WebhookState;
  readonly organization: OrganizationState;
  readonly slow: boolean;
  /** When it got a connection (NaN until then). */
  connectedAt: number;
  ended: boolean;
}

const noAnswers = (): RecentAnswers => ({ bucket: 0, current: 0, previous: 0 });

/** Answers in the current and the previous bucket (moving the buckets on to `nowMs`). */
function answered(recent: RecentAnswers, nowMs: number): number {
  const bucket = Math.floor(nowMs / ANSWER_BUCKET_MS);
  if (bucket !== recent.bucket) {
    recent.previous = bucket === recent.bucket + 1 ? recent.current : 0;
    recent.current = 0;
    recent.bucket = bucket;
  }
  return recent.current + recent.previous;
}

/**
 * Keeps one slow endpoint or tenant from holding a worker's delivery slots, without waiting in
 * the worker: an attempt is admitted or refused at once, and a refused one is deferred (handed
 * back as pending, no attempt counted) to come back about when a slot should be free. Fast
 * endpoints are limited only by the backstops, which their answers raise; a slow one gets SLOW_WEBHOOK_CAP
 * attempts at once, and an organization's slow webhooks SLOW_ORGANIZATION_CAP together. The
 * clock is the caller's (monotonic ms). Per process.
 */
export class DeliveryAdmission {
  private readonly webhooks = new Map<string, WebhookState>();
  private readonly organizations = new Map<string, OrganizationState>();
  private prunedAt = 0;

  /** A slot for an attempt to the webhook, or undefined: defer the attempt (deferMs). */
  admit(webhookId: string, organizationId: string, nowMs: number): Slot | undefined {
    if (nowMs - this.prunedAt >= IDLE_FORGET_MS) this.prune(nowMs);
    let webhook = this.webhooks.get(webhookId);
    if (!webhook) {
      webhook = {
        inFlight: 0,
        serviceMs: 0,
        connected: [],
        deferredUntil: 0,
        lastUsedMs: nowMs,
        ...noAnswers(),
      };
      this.webhooks.set(webhookId, webhook);
    }
    let organization = this.organizations.get(organizationId);
    if (!organization) {
      organization = { inFlight: 0, slowInFlight: 0, ...noAnswers() };
      this.organizations.set(organizationId, organization);
    }
    webhook.lastUsedMs = nowMs;
    const slow = this.serviceEstimateMs(webhook, nowMs) >= SLOW_SERVICE_MS;
    if (
      organization.inFlight >= Math.max(ORGANIZATION_CAP, answered(organization, nowMs)) ||
      (slow
        ? webhook.inFlight >= SLOW_WEBHOOK_CAP || organization.slowInFlight >= SLOW_ORGANIZATION_CAP
        : webhook.inFlight >= Math.max(WEBHOOK_CAP, answered(webhook, nowMs)))
    ) {
      return undefined;
    }
    webhook.inFlight += 1;
    organization.inFlight += 1;
    if (slow) organization.slowInFlight += 1;
    return { webhook, organization, slow, connectedAt: Number.NaN, ended: false };
  }

  /** The attempt got its connection: its service time runs from here. */
  connected(slot: Slot, nowMs: number): void {
    if (slot.ended) return;
    slot.connectedAt = nowMs;
    slot.webhook.connected.push(slot);
  }

  /** The attempt ended (answered, failed or timed out). */
  release(slot: Slot, nowMs: number): void {
    if (slot.ended) return;
    slot.ended = true;
    const { webhook, organization } = slot;
    webhook.inFlight -= 1;
    organization.inFlight -= 1;
    if (slot.slow) organization.slowInFlight -= 1;
    // An attempt that never got a connection waited on this side: not the endpoint's time.
    if (!Number.isNaN(slot.connectedAt)) {
      const serviceMs = nowMs - slot.connectedAt;
      webhook.serviceMs += SERVICE_EWMA_WEIGHT * (serviceMs - webhook.serviceMs);
      if (serviceMs < SLOW_SERVICE_MS) {
        answered(webhook, nowMs);
        answered(organization, nowMs);
        webhook.current += 1;
        organization.current += 1;
      }
    }
    webhook.lastUsedMs = nowMs;
  }

  /**
   * How long to defer a refused attempt: an endpoint not known to be slow gets it back within
   * MIN_DEFER_MS to twice that; a slow one's deferrals queue up behind each other, one per
   * expected free slot (at the pace it answers; without answers, at most
   * SLOW_WEBHOOK_CAP per SLOW_SERVICE_MS or its service time), so a backlog comes back spread
   * out instead of in one wave. Within [MIN_DEFER_MS, MAX_DEFER_MS]; `random` in [0, 1) spreads
   * them ±10 %, and those past the end of the queue over its second half.
   */
  deferMs(webhookId: string, nowMs: number, random: number): number {
    const webhook = this.webhooks.get(webhookId);
    if (!webhook) return MIN_DEFER_MS;
    // Not known to be slow (a fresh worker's first claims outrun the first answers): back soon,
    // when its answers will have raised the backstop. Pacing a fast endpoint's backlog at the
    // slow pace held a 20k drain to ~660/s (deferrals spread over up to 30 s).
    if (this.serviceEstimateMs(webhook, nowMs) < SLOW_SERVICE_MS) {
      return Math.round(MIN_DEFER_MS * (1 + random));
    }
    const answers = answered(webhook, nowMs);
    const slowSlotMs =
      Math.max(SLOW_SERVICE_MS, this.serviceEstimateMs(webhook, nowMs)) / SLOW_WEBHOOK_CAP;
    const slotMs =
      answers > 0 ? Math.min(slowSlotMs, (2 * ANSWER_BUCKET_MS) / answers) : slowSlotMs;
    const until = Math.max(nowMs, webhook.deferredUntil) + slotMs;
    if (until - nowMs > MAX_DEFER_MS) return Math.round(MAX_DEFER_MS * (0.5 + 0.5 * random));
    webhook.deferredUntil = until;
    const delay = (until - nowMs) * (0.9 + 0.2 * random);
    return Math.round(Math.min(MAX_DEFER_MS, Math.max(MIN_DEFER_MS, delay)));
  }

  /** Webhooks and organizations this process keeps state for (tests). */
  tracked(): { webhooks: number; organizations: number } {
    return { webhooks: this.webhooks.size, organizations: this.organizations.size };
  }

  /** The longer of the average service time and the age of the oldest connection still open. */
  private serviceEstimateMs(webhook: WebhookState, nowMs: number): number {
    const connected = webhook.connected;
    while (connected.length > 0 && connected[0].ended) connected.shift();
    const oldestMs = connected.length > 0 ? nowMs - connected[0].connectedAt : 0;
    return Math.max(webhook.serviceMs, oldestMs);
  }

  private prune(nowMs: number): void {
    this.prunedAt = nowMs;
    for (const [id, webhook] of this.webhooks) {
      if (webhook.inFlight === 0 && nowMs - webhook.lastUsedMs >= IDLE_FORGET_MS) {
        this.webhooks.delete(id);
      }
    }
    for (const [id, organization] of this.organizations) {
      if (organization.inFlight === 0) this.organizations.delete(id);
    }
  }
}
