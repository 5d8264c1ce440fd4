import { promises as dns, type LookupAddress, type LookupOptions } from 'node:dns';
import { Inject, Injectable } from '@nestjs/common';
import { type AppConfig, InjectConfig } from '../../../config';
import {
  checkWebhookTarget,
  firstRefusal,
  type TargetVerdict,
  type WebhookDnsResolver,
} from './target-policy';

/** DI token of the host name resolver the webhook SSRF checks use (default: the OS resolver). */
export const WEBHOOK_DNS_RESOLVER = Symbol('WEBHOOK_DNS_RESOLVER');

export const systemDnsResolver: WebhookDnsResolver = (hostname) =>
  dns.lookup(hostname, { all: true, verbatim: true });

/** Raised at connect time when a webhook host resolves to an address it may not reach. */
export class SsrfBlockedError extends Error {
  readonly code = 'ERR_SSRF_BLOCKED';

  constructor(
    readonly hostname: string,
    readonly address: string | undefined,
    reason: string,
  ) {
    super(`Webhook target ${hostname} refused: ${reason}`);
    this.name = 'SsrfBlockedError';
  }
}

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/** The signature of `dns.lookup` that `net`, `tls`, `https.Agent` and undici call. */
export type GuardedLookup = (
  hostname: string,
  options: LookupOptions | number | LookupCallback,
  callback?: LookupCallback,
) => void;

/**
 * SSRF protection for webhook targets: `checkUrl` when a URL is saved, `lookup` when a delivery
 * connects, so DNS rebinding cannot reach private space.
 */
@Injectable()
export class WebhookTargetGuard {
  private readonly allowPrivateTargets: boolean;

  constructor(
    @InjectConfig() config: AppConfig,
    @Inject(WEBHOOK_DNS_RESOLVER) private readonly resolve: WebhookDnsResolver,
  ) {
    this.allowPrivateTargets = config.webhooks.allowPrivateTargets;
  }

  /** Scheme, credentials, port, IP-literal class and every resolved address of the host. */
  checkUrl(url: string): Promise<TargetVerdict> {
    return checkWebhookTarget(url, {
      allowPrivateTargets: this.allowPrivateTargets,
      resolve: this.resolve,
    });
  }

  /**
   * A drop-in `lookup` for `https.request({ lookup })`, `new https.Agent({ lookup })` and undici
   * `new Agent({ connect: { lookup } })`: resolves through the injected resolver and fails with
   * SsrfBlockedError (code ERR_SSRF_BLOCKED) when any address is not globally routable.
   * Node does not call `lookup` for an IP-literal host: `checkUrl` covers those before the attempt.
   */
  readonly lookup: GuardedLookup = (hostname, optionsOrCallback, maybeCallback) => {
    const callback = (
      typeof optionsOrCallback === 'function' ? optionsOrCallback : maybeCallback
    ) as LookupCallback;
    const options: LookupOptions =
      typeof optionsOrCallback === 'object'
        ? optionsOrCallback
        : typeof optionsOrCallback === 'number'
          ? { family: optionsOrCallback }
          : {};
    this.resolveAllowed(hostname, options.family).then(
      (addresses) => {
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0].address, addresses[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, options.all ? [] : ''),
    );
  };

  private async resolveAllowed(
    hostname: string,
    family: LookupOptions['family'],
  ): Promise<LookupAddress[]> {
    const wanted = family === 'IPv4' ? 4 : family === 'IPv6' ? 6 : family;
    const addresses = (await this.resolve(hostname)).filter(
      (entry) => !wanted || entry.family === wanted,
    );
    if (addresses.length === 0) {
      throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), {
        code: 'ENOTFOUND',
        hostname,
      });
    }
    const refusal = firstRefusal(addresses, this.allowPrivateTargets);
    if (refusal) throw new SsrfBlockedError(hostname, refusal.address, refusal.reason);
    return addresses;
  }
}
