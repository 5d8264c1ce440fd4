import type { AutoOutcome, CallbackDelivery } from '../test/fakes';
import { applyFaultPlan, type FaultStep } from '../test/fakes/fault-plan';
import type { ReceivedDelivery } from '../test/support/webhook-receiver';
import { SandboxServices } from './sandbox-services';

/** How each demo callee answers, one outcome per attempt (the batch retries once). */
const SCRIPTS: AutoOutcome[][] = [['completed'], ['busy', 'completed'], ['no-answer', 'no-answer']];
const CONTACTS_PER_NUMBER = 3;
const RETRY_DELAY_SECONDS = 2;
const CALL_EVENTS = ['call.started', 'call.answered', 'call.completed', 'call.failed'];

export interface DemoOptions {
  /** The environment the service starts with (the fakes' URLs and the demo's own win). */
  env: NodeJS.ProcessEnv;
  print: (line: string) => void;
  /** Longest wait for the batch and its events (default 90 s). */
  timeoutMs?: number;
  /** Fault modes switched on at the telephony fakes (`--faults=…`). */
  faults?: FaultStep[];
}

export interface DemoResult {
  batchId: string;
  queueStatus: string;
  totalCalls: number;
  callsPicked: number;
  callsCompleted: number;
  /** Provider callbacks the service answered, and the signed events the receiver verified. */
  callbacks: number;
  events: number;
  unverified: number;
}

interface PhoneLog {
  callStatus: string;
  callDuration: number;
}
interface CallRecord {
  phoneNumber: string;
  name?: string;
  phoneLogs?: PhoneLog[];
}

/**
 * The sandbox's demo: Switchboard on a throw-away embedded database beside the three provider
 * fakes (auto-progress on) and a local HTTPS webhook receiver. It signs up, adds the three demo
 * numbers, an agent and a webhook through the API, creates a batch, lets the scheduler dial it,
 * prints every provider callback and every signed event as they arrive, then the batch. `close`
 * removes everything it started or wrote.
 */
export class SandboxDemo {
  private services?: SandboxServices;
  private secret = '';
  private callbacks = 0;
  private events = 0;
  private unverified = 0;
  /** What each callee does on its next call, whichever provider places it. */
  private readonly outcomes = new Map<string, AutoOutcome[]>();

  constructor(private readonly options: DemoOptions) {}

  async run(): Promise<DemoResult> {
    const { print } = this.options;
    const services = await this.start();
    const { userId } = await services.register();
    const { fakes, receiver } = services;
    const phones = [
      {
        integration: 'provider_one',
        number: fakes.plivo.number,
        accSId: fakes.plivo.authId,
        authToken: fakes.plivo.authToken,
      },
      {
        integration: 'provider_two',
        number: fakes.twilio.number,
        accSId: fakes.twilio.accountSid,
        authToken: fakes.twilio.authToken,
      },
      {
        integration: 'provider_three',
        number: fakes.telnyx.number,
        accSId: '',
        authToken: fakes.telnyx.apiKey,
      },
    ];
    const phoneIds: string[] = [];
    for (const phone of phones) {
      const added = await services.call<{ _id: string }>('POST', '/api/call/add-phone', {
        userId,
        phoneNumber: phone.number,
        integration: phone.integration,
        accSId: phone.accSId,
        authToken: phone.authToken,
      });
      phoneIds.push(added._id);
      print(`Added ${phone.integration} number ${phone.number}`);
    }
    const agent = await services.call<{ _id: string }>('POST', '/api/agents', {
      agent_name: 'Ava',
      prompt: 'You remind the customer of their appointment.',
      greeting: 'Hello, this is Ava from the Switchboard sandbox.',
    });
    const hook = await services.call<{ _id: string; secret: string }>('POST', '/api/webhooks', {
      name: 'Sandbox receiver',
      url: receiver.url('/switchboard'),
      events: CALL_EVENTS,
    });
    this.secret = hook.secret;
    print(`Agent ${agent._id} speaks; webhook ${hook._id} → ${receiver.url('/switchboard')}`);

    const contacts = this.contacts(phones.length * CONTACTS_PER_NUMBER);
    const batchId = await services.call<string>('POST', '/api/call/createBatch', {
      batchName: 'Sandbox demo',
      callingNumbers: phoneIds,
      agentId: agent._id,
      retry: 1,
      delay: RETRY_DELAY_SECONDS,
      enforceCalleeLocalHours: false,
      contacts: contacts.map(({ phoneNumber, name }) => ({ phoneNumber, name })),
    });
    print(
      `Batch ${batchId}: ${contacts.length} contacts, retry 1 after ${RETRY_DELAY_SECONDS} s, ` +
        'enforceCalleeLocalHours false and no callingHour, so it dials at any hour ' +
        '(real campaigns keep the callee-hours rule on).',
    );
    print('Scripted answers: ' + contacts.map((c) => `${c.name} ${c.script.join('→')}`).join(', '));
    print('');

    const result = await this.untilDone(batchId, userId);
    print('');
    await this.printDetails(batchId);
    print(
      `Batch ${result.queueStatus}: ${result.totalCalls} contacts, ${result.callsPicked} picked up, ` +
        `${result.callsCompleted} completed; ${result.callbacks} provider callbacks, ` +
        `${result.events} signed events (${result.unverified} failed verification).`,
    );
    return result;
  }

  /** Stops the service, the fakes and the receiver, and removes the demo's data directory. */
  async close(): Promise<void> {
    await this.services?.close();
    this.services = undefined;
  }

  private async start(): Promise<SandboxServices> {
    const services = await SandboxServices.start(this.options.env);
    this.services = services;
    services.receiver.onDelivery = (delivery) => this.onEvent(delivery);
    for (const [name, fake] of services.namedFakes()) {
      fake.onDelivery = (delivery) => this.onCallback(name, delivery);
      fake.autoProgress = (to) => this.outcomes.get(to)?.shift() ?? 'failed';
    }
    applyFaultPlan(
      services.namedFakes().map(([, fake]) => fake),
      this.options.faults ?? [],
    );
    this.options.print(
      `Switchboard demo at ${services.base} (data: ${services.dataDir ?? 'DATABASE_URL'})`,
    );
    return services;
  }

  private contacts(count: number) {
    return Array.from({ length: count }, (_, i) => {
      const contact = {
        phoneNumber: `+1212555${String(100 + i).padStart(4, '0')}`,
        name: `Contact ${i + 1}`,
        script: SCRIPTS[i % SCRIPTS.length],
      };
      this.outcomes.set(contact.phoneNumber, [...contact.script]);
      return contact;
    });
  }

  private async untilDone(batchId: string, userId: string): Promise<DemoResult> {
    const deadline = Date.now() + (this.options.timeoutMs ?? 90_000);
    for (;;) {
      const listed = await this.services!.call<{ batches: Array<Record<string, unknown>> }>(
        'GET',
        `/api/call/batches/${userId}?limit=100`,
      );
      const batch = listed.batches.find((b) => b._id === batchId);
      const expected =
        batch?.queue_status === 'completed' ? await this.expectedEvents(batchId) : -1;
      if (batch && expected >= 0 && this.events >= expected) {
        return {
          batchId,
          queueStatus: String(batch.queue_status),
          totalCalls: Number(batch.totalCalls),
          callsPicked: Number(batch.callsPicked),
          callsCompleted: Number(batch.callsCompleted),
          callbacks: this.callbacks,
          events: this.events,
          unverified: this.unverified,
        };
      }
      if (Date.now() > deadline) throw new Error(`Batch ${batchId} did not finish in time`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  /** started, answered, completed for an answered call; started, failed otherwise. */
  private async expectedEvents(batchId: string): Promise<number> {
    const records = await this.records(batchId);
    const logs = records.flatMap((record) => record.phoneLogs ?? []);
    return logs.reduce((sum, log) => sum + (log.callStatus === 'completed' ? 3 : 2), 0);
  }

  private async records(batchId: string): Promise<CallRecord[]> {
    const details = await this.services!.call<{ data: CallRecord[] }>(
      'GET',
      `/api/call/batch-details/${batchId}?limit=100`,
    );
    return details.data;
  }

  private async printDetails(batchId: string): Promise<void> {
    for (const record of await this.records(batchId)) {
      const attempts = (record.phoneLogs ?? [])
        .map((log) => `${log.callStatus} (${log.callDuration} s)`)
        .join(', then ');
      this.options.print(`${record.phoneNumber} ${record.name ?? ''}: ${attempts || 'not dialed'}`);
    }
  }

  private onCallback(provider: string, delivery: CallbackDelivery): void {
    if (delivery.status >= 200 && delivery.status < 300) this.callbacks += 1;
    const answer = delivery.status === 0 ? `unreachable: ${delivery.error}` : delivery.status;
    this.options.print(
      `  callback  ${provider.padEnd(6)} ${delivery.kind.padEnd(6)} ${delivery.event.padEnd(28)} → ${answer}`,
    );
  }

  private onEvent(delivery: ReceivedDelivery): void {
    const event = this.services!.verify(delivery, this.secret);
    let line: string;
    if (event.verified) {
      this.events += 1;
      line = `${event.type.padEnd(15)} call ${event.data.call_id} #${String(event.data.sequence)}  signature verified`;
    } else {
      this.unverified += 1;
      line = `unverifiable delivery: ${event.reason}`;
    }
    this.options.print(`  event     ${line}`);
  }
}
