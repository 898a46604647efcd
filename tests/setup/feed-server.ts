import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export type FeedHandler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * A local HTTP server that serves calendar feeds (or hostile answers) by path, as the tests
 * set them, and counts the requests each path gets. Started and stopped with the suite.
 */
export class FeedServer {
  private server: Server | undefined;
  private readonly routes = new Map<string, FeedHandler>();
  private readonly hitsByPath = new Map<string, number>();
  private readonly timers = new Set<NodeJS.Timeout>();

  /** Serves `text` as text/calendar at `path`. */
  serve(path: string, text: string) {
    this.routes.set(path, (_req, res) => {
      res.writeHead(200, { "Content-Type": "text/calendar; charset=utf-8" });
      res.end(text);
    });
  }

  /** Answers `path` with a handler of its own (slow, huge, redirecting...). */
  handle(path: string, handler: FeedHandler) {
    this.routes.set(path, handler);
  }

  /** A timer cleared when the server stops (for handlers that trickle). */
  every(ms: number, tick: () => void) {
    const timer = setInterval(tick, ms);
    this.timers.add(timer);
  }

  hits(path: string): number {
    return this.hitsByPath.get(path) ?? 0;
  }

  url(path: string): string {
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}${path}`;
  }

  async start() {
    this.server = createServer((req, res) => {
      const path = new URL(req.url ?? "/", "http://x").pathname;
      this.hitsByPath.set(path, this.hits(path) + 1);
      const route = this.routes.get(path);
      if (route) return route(req, res);
      res.writeHead(404);
      res.end("not found");
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
  }

  async stop() {
    for (const timer of this.timers) clearInterval(timer);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** A FeedServer for the enclosing suite. */
export function serveFeeds(): FeedServer {
  const server = new FeedServer();
  beforeAll(() => server.start());
  afterAll(() => server.stop());
  return server;
}

/** A calendar of all-day busy events, `[uid, start, end]` as YYYY-MM-DD, with CRLF ends. */
export function allDayCalendar(events: [uid: string, start: string, end: string][]): string {
  const lines = ["BEGIN:VCALENDAR", "VERSION:2.0", "PRODID:-//Test//Channel//EN"];
  for (const [uid, start, end] of events)
    lines.push(
      "BEGIN:VEVENT",
      `UID:${uid}`,
      "DTSTAMP:20260101T000000Z",
      `DTSTART;VALUE=DATE:${start.replaceAll("-", "")}`,
      `DTEND;VALUE=DATE:${end.replaceAll("-", "")}`,
      "SUMMARY:Reserved",
      "END:VEVENT",
    );
  lines.push("END:VCALENDAR");
  return `${lines.join("\r\n")}\r\n`;
}
