import type { IncomingMessage, Server } from 'node:http';
import { ProcessDrain } from '../../../lifecycle/process-drain';
import type { Duplex } from 'node:stream';
import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { PinoLogger } from 'nestjs-pino';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import type { Integration } from '../../telephony/telephony.types';
import { CallSessions } from '../session/call-sessions';
import { PlivoStream } from './plivo-stream';
import type { MessageSink, ProviderStream } from './provider-stream';
import { STREAM_PATH } from './stream-url';
import { TelnyxStream } from './telnyx-stream';
import { TwilioStream } from './twilio-stream';

/**
 * Largest message a provider may send. Media messages are ~300 bytes (160 bytes base64 in JSON);
 * a start message a few KiB. Past it `ws` closes the socket with 1009.
 */
export const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * Each socket is pinged this often; one that has not answered the previous ping, or has this
 * much of our audio still unsent (a peer that stopped reading), is dead: it is cut and its call
 * hung up at the provider (CallSession.lost), never left half-open.
 */
export const PING_INTERVAL_MS = 5_000;
export const MAX_UNSENT_BYTES = 512 * 1024;

/** Close codes: normal, policy violation (token), unsupported data (binary), invalid JSON. */
const CLOSE_NORMAL = 1000;
const CLOSE_POLICY = 1008;
const CLOSE_UNSUPPORTED = 1003;
const CLOSE_INVALID = 1007;

function providerStream(
  integration: Integration,
  sink: MessageSink,
  urlToken: string | undefined,
): ProviderStream {
  switch (integration) {
    case 'provider_one':
      return new PlivoStream(sink);
    case 'provider_two':
      return new TwilioStream(sink);
    case 'provider_three':
      return new TelnyxStream(sink, urlToken);
  }
}

/**
 * The media WebSocket `/api/telephony/{integration}/stream` on the service's own HTTP server
 * (contract §8). Each socket gets its provider's gateway and a call session; the session
 * checks the stream token before anything else. Any other upgrade is refused with 404.
 */
@Injectable()
export class MediaGateway implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly server = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    perMessageDeflate: false,
  });
  private httpServer: Server | undefined;
  /** Sockets that answered the last ping. */
  private readonly alive = new WeakSet<WebSocket>();
  private readonly pinger = setInterval(() => this.ping(), PING_INTERVAL_MS).unref();

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    private readonly sessions: CallSessions,
    private readonly logger: PinoLogger,
    private readonly drain: ProcessDrain,
  ) {
    this.logger.setContext(MediaGateway.name);
  }

  async onApplicationBootstrap(): Promise<void> {
    // Absent when the app is built without an HTTP server (the OpenAPI generator, the worker).
    this.httpServer = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!this.httpServer) return;
    this.httpServer.on('upgrade', this.upgrade);
    await this.sessions.warmUp();
  }

  onModuleDestroy(): void {
    clearInterval(this.pinger);
    this.httpServer?.off('upgrade', this.upgrade);
    for (const socket of this.server.clients) socket.terminate();
    this.server.close();
  }

  private readonly upgrade = (request: IncomingMessage, socket: Duplex, head: Buffer): void => {
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://localhost');
    } catch {
      return refuseUpgrade(socket, 400, 'Bad Request');
    }
    const integration = STREAM_PATH.exec(url.pathname)?.[1] as Integration | undefined;
    if (!integration) return refuseUpgrade(socket, 404, 'Not Found');
    // A draining process takes no new call (the load balancer has it out of rotation already).
    if (this.drain.draining) return refuseUpgrade(socket, 503, 'Service Unavailable');
    this.server.handleUpgrade(request, socket, head, (ws) =>
      this.accept(ws, integration, url.searchParams.get('token') ?? undefined),
    );
  };

  private accept(ws: WebSocket, integration: Integration, urlToken: string | undefined): void {
    const sink: MessageSink = {
      send: (text) => {
        if (ws.readyState === ws.OPEN) ws.send(text);
      },
      close: (refused) => ws.close(refused ? CLOSE_POLICY : CLOSE_NORMAL),
    };
    const stream = providerStream(integration, sink, urlToken);
    const session = this.sessions.open(integration, stream);
    const drop = (code: number, reason: string) => {
      this.logger.warn({ integration, reason }, 'Media stream message refused');
      ws.close(code);
      session.lost();
    };
    this.alive.add(ws);
    ws.on('pong', () => this.alive.add(ws));
    ws.on('message', (data: RawData, isBinary: boolean) => {
      if (isBinary) return drop(CLOSE_UNSUPPORTED, 'binary message');
      let message: unknown;
      try {
        message = JSON.parse(rawText(data));
      } catch {
        return drop(CLOSE_INVALID, 'malformed JSON');
      }
      if (typeof message !== 'object' || message === null || Array.isArray(message))
        return drop(CLOSE_INVALID, 'not a JSON object');
      const events = stream.read(message as Record<string, unknown>) ?? [];
      for (const event of Array.isArray(events) ? events : [events]) session.handle(event);
    });
    // A close the session did not ask for (after the provider's `stop` it has ended already).
    ws.on('close', () => session.lost());
    ws.on('error', (error) => {
      // ws reports an oversized or broken frame here and closes the socket itself.
      this.logger.warn({ integration, reason: error.message }, 'Media stream error');
      session.lost();
    });
  }

  private ping(): void {
    for (const ws of this.server.clients) {
      if (!this.alive.has(ws) || ws.bufferedAmount > MAX_UNSENT_BYTES) {
        this.logger.warn('Media stream unresponsive: closing it');
        ws.terminate();
        continue;
      }
      this.alive.delete(ws);
      ws.ping();
    }
  }
}

// Decoded in place: Buffer.from(buffer) would copy every frame first.
const rawText = (data: RawData): string =>
  Array.isArray(data)
    ? Buffer.concat(data).toString('utf8')
    : Buffer.isBuffer(data)
      ? data.toString('utf8')
      : Buffer.from(data).toString('utf8');

function refuseUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
}
