import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  checkOutboundUrl,
  isPublicAddress,
  OutboundFetchError,
  type OutboundPolicy,
  safeFetch,
} from "./safe-fetch.ts";

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** A local HTTP server whose answer each test sets, counting the requests that reach it. */
class LocalServer {
  server: Server | undefined;
  handler: Handler = (_req, res) => res.end("hello");
  hits = 0;
  async start(host = "127.0.0.1") {
    this.server = createServer((req, res) => {
      this.hits += 1;
      this.handler(req, res);
    });
    await new Promise<void>((resolve) => this.server!.listen(0, host, resolve));
  }
  get port() {
    return (this.server!.address() as AddressInfo).port;
  }
  url(path = "/", host = "127.0.0.1") {
    return `http://${host}:${this.port}${path}`;
  }
  async stop() {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) =>
      this.server ? this.server.close(() => resolve()) : resolve(),
    );
  }
}

/** The code of the OutboundFetchError a promise rejects with. */
async function codeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof OutboundFetchError) return error.code;
    throw error;
  }
  return "fetched";
}

const OPEN: OutboundPolicy = { allowPrivateNetworks: true };
const CLOSED: OutboundPolicy = { allowPrivateNetworks: false };

describe("isPublicAddress", () => {
  it.each([
    ["8.8.8.8", true],
    ["93.184.216.34", true],
    ["2606:4700:4700::1111", true],
    ["::ffff:8.8.8.8", true],
    ["127.0.0.1", false],
    ["127.8.9.10", false],
    ["10.1.2.3", false],
    ["172.16.0.1", false],
    ["172.31.255.254", false],
    ["192.168.1.1", false],
    ["169.254.169.254", false],
    ["100.64.0.1", false],
    ["0.0.0.0", false],
    ["224.0.0.1", false],
    ["255.255.255.255", false],
    ["::1", false],
    ["::", false],
    ["fe80::1", false],
    ["fc00::1", false],
    ["fd12:3456::1", false],
    ["ff02::1", false],
    ["::ffff:127.0.0.1", false],
    ["::ffff:10.0.0.1", false],
    ["::ffff:169.254.169.254", false],
    ["64:ff9b::a00:1", false],
    ["2002:7f00:1::", false],
    // IPv4-compatible IPv6 (::/96), as the URL parser writes [::127.0.0.1]
    ["::127.0.0.1", false],
    ["::7f00:1", false],
    ["::808:808", false],
    ["64:ff9b:1::a00:1", false],
    ["100::1", false],
    ["2001::1", false],
    ["2001:db8::1", false],
    ["3fff::1", false],
    ["5f00::1", false],
    ["fec0::1", false],
    ["2001:4860:4860::8888", true],
    ["192.0.0.8", false],
    ["192.0.2.10", false],
    ["198.18.0.1", false],
    ["198.51.100.7", false],
    ["203.0.113.9", false],
    ["240.0.0.1", false],
    ["192.88.99.1", false],
    ["not an address", false],
  ])("%s is public: %s", (address, expected) => {
    expect(isPublicAddress(address)).toBe(expected);
  });
});

describe("safeFetch", () => {
  const server = new LocalServer();
  const second = new LocalServer();
  beforeAll(async () => {
    await server.start();
    // Listens on every loopback address, so 127.0.0.2 reaches it.
    await second.start("0.0.0.0");
  });
  afterAll(async () => {
    await server.stop();
    await second.stop();
  });
  afterEach(() => {
    server.handler = (_req, res) => res.end("hello");
    second.handler = (_req, res) => res.end("second");
    server.hits = 0;
    second.hits = 0;
  });

  it("fetches a body when private networks are allowed", async () => {
    const answer = await safeFetch(server.url("/feed.ics"), OPEN);
    expect(answer.status).toBe(200);
    expect(answer.body.toString()).toBe("hello");
    expect(answer.url).toBe(server.url("/feed.ics"));
  });

  it("refuses loopback, by address or by name, before a request is sent", async () => {
    for (const url of [
      server.url("/"),
      server.url("/", "localhost"),
      `http://[::ffff:127.0.0.1]:${server.port}/`,
      `http://[::1]:${server.port}/`,
      `http://[::127.0.0.1]:${server.port}/`,
      `http://0.0.0.0:${server.port}/`,
      `http://2130706433:${server.port}/`,
    ])
      expect({ url, code: await codeOf(safeFetch(url, CLOSED)) }).toEqual({
        url,
        code: "blocked_address",
      });
    expect(server.hits).toBe(0);
    await expect(checkOutboundUrl(server.url("/", "localhost"), CLOSED)).rejects.toMatchObject({
      code: "blocked_address",
    });
    await expect(checkOutboundUrl("http://169.254.169.254/latest", CLOSED)).rejects.toMatchObject({
      code: "blocked_address",
    });
    await expect(checkOutboundUrl(server.url("/", "localhost"), OPEN)).resolves.toBeInstanceOf(URL);
  });

  it("refuses what is not an http(s) address", async () => {
    for (const url of [
      "file:///etc/passwd",
      "ftp://example.com/x.ics",
      "javascript:alert(1)",
      "not a url",
      "/relative.ics",
      `https://example.com/${"x".repeat(2100)}`,
    ])
      expect(await codeOf(safeFetch(url, OPEN))).toBe("invalid_url");
  });

  it("follows up to three redirects, and refuses a fourth", async () => {
    server.handler = (req, res) => {
      const query = new URL(req.url!, "http://x").searchParams;
      const step = Number(query.get("step"));
      const of = Number(query.get("of"));
      if (step < of) {
        res.writeHead(302, { Location: `/hop?step=${step + 1}&of=${of}` });
        return res.end();
      }
      res.end(`arrived after ${step}`);
    };
    const three = await safeFetch(server.url("/hop?step=0&of=3"), OPEN);
    expect(three.body.toString()).toBe("arrived after 3");
    expect(three.url).toBe(server.url("/hop?step=3&of=3"));
    server.hits = 0;
    expect(await codeOf(safeFetch(server.url("/hop?step=0&of=4"), OPEN))).toBe(
      "too_many_redirects",
    );
    expect(server.hits).toBe(4);
  });

  it("checks each redirect again: a hop to a private address is refused unsent", async () => {
    // 127.0.0.1 is let through as an exception; the rest of 127.0.0.0/8 is not.
    const policy: OutboundPolicy = { allowPrivateNetworks: false, allowedAddresses: ["127.0.0.1"] };
    for (const target of [
      `http://127.0.0.2:${second.port}/inside`,
      `http://127.0.0.3:${second.port}/inside`,
    ]) {
      server.handler = (_req, res) => {
        res.writeHead(301, { Location: target });
        res.end();
      };
      expect(await codeOf(safeFetch(server.url("/out"), policy))).toBe("blocked_address");
    }
    expect(server.hits).toBe(2);
    expect(second.hits).toBe(0);
    // The same hop with private networks allowed reaches the second server.
    server.handler = (_req, res) => {
      res.writeHead(307, { Location: `http://127.0.0.2:${second.port}/inside` });
      res.end();
    };
    expect((await safeFetch(server.url("/out"), OPEN)).body.toString()).toBe("second");
  });

  it("stops at the size cap, whether Content-Length says so or not", async () => {
    const cap = 64 * 1024;
    let written = 0;
    const stream = (res: ServerResponse, total: number) => {
      const chunk = Buffer.alloc(16 * 1024, "x");
      const more = () => {
        while (written < total) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once("drain", more);
        }
        res.end();
      };
      res.on("error", () => undefined);
      more();
    };
    // Declared too large: refused from the header, before the body.
    server.handler = (_req, res) => {
      res.writeHead(200, { "Content-Length": String(50 * 1024 * 1024) });
      res.write("x");
    };
    expect(await codeOf(safeFetch(server.url("/big"), { ...OPEN, maxBytes: cap }))).toBe(
      "too_large",
    );
    // No Content-Length (chunked): refused as soon as the bytes pass the cap.
    written = 0;
    server.handler = (_req, res) => stream(res, 50 * 1024 * 1024);
    const started = performance.now();
    expect(await codeOf(safeFetch(server.url("/chunked"), { ...OPEN, maxBytes: cap }))).toBe(
      "too_large",
    );
    expect(performance.now() - started).toBeLessThan(5000);
    // The reader hung up long before the 50 MB were sent.
    expect(written).toBeLessThan(10 * 1024 * 1024);
    // A Content-Length that lies (says small, sends more) is cut at the cap as well.
    server.handler = (_req, res) => {
      res.writeHead(200, { "Content-Length": "10" });
      res.end(Buffer.alloc(cap + 10, "y"));
    };
    expect(await codeOf(safeFetch(server.url("/liar"), { ...OPEN, maxBytes: cap }))).not.toBe(
      "fetched",
    );
    // Exactly the cap passes.
    server.handler = (_req, res) => res.end(Buffer.alloc(cap, "z"));
    expect((await safeFetch(server.url("/fits"), { ...OPEN, maxBytes: cap })).body.length).toBe(
      cap,
    );
  });

  it("reads a compressed body, and caps it after decompression", async () => {
    server.handler = (_req, res) => {
      res.writeHead(200, { "Content-Encoding": "gzip" });
      res.end(gzipSync("BEGIN:VCALENDAR"));
    };
    expect((await safeFetch(server.url("/gz"), OPEN)).body.toString()).toBe("BEGIN:VCALENDAR");
    // 10 MB of zeros are a few KB compressed.
    const bomb = gzipSync(Buffer.alloc(10 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(64 * 1024);
    server.handler = (_req, res) => {
      res.writeHead(200, { "Content-Encoding": "gzip", "Content-Length": bomb.length });
      res.end(bomb);
    };
    expect(await codeOf(safeFetch(server.url("/bomb"), { ...OPEN, maxBytes: 1024 * 1024 }))).toBe(
      "too_large",
    );
  });

  it("gives up on a slow server at the timeout, whether it is silent or trickles", async () => {
    server.handler = () => undefined;
    let started = performance.now();
    expect(await codeOf(safeFetch(server.url("/silent"), { ...OPEN, timeoutMs: 300 }))).toBe(
      "timeout",
    );
    expect(performance.now() - started).toBeLessThan(2000);
    const timers: NodeJS.Timeout[] = [];
    server.handler = (_req, res) => {
      res.writeHead(200);
      timers.push(setInterval(() => res.write("x"), 50));
    };
    started = performance.now();
    expect(await codeOf(safeFetch(server.url("/trickle"), { ...OPEN, timeoutMs: 400 }))).toBe(
      "timeout",
    );
    expect(performance.now() - started).toBeLessThan(2000);
    for (const timer of timers) clearInterval(timer);
  });

  it("reports an error status and an unreachable host by their codes", async () => {
    server.handler = (_req, res) => {
      res.writeHead(404);
      res.end("gone");
    };
    const error = await safeFetch(server.url("/missing"), OPEN).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OutboundFetchError);
    expect(error).toMatchObject({ code: "http_status", detail: "the server answered 404" });
    const closed = new LocalServer();
    await closed.start();
    const url = closed.url("/");
    await closed.stop();
    expect(await codeOf(safeFetch(url, OPEN))).toBe("network");
    expect(await codeOf(safeFetch("http://no-such-host.invalid/x.ics", OPEN))).toBe("unresolvable");
  });
});
