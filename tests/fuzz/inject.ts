import { IncomingMessage, ServerResponse } from "node:http";
import { Writable } from "node:stream";
import type { Express } from "express";

export interface InjectedRequest {
  method: string;
  /** Path and query, e.g. `/api/bookings?lang=fr`. */
  url: string;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** The client's address as the socket reports it (the app trusts loopback proxies). */
  remoteAddress?: string;
}

export interface InjectedAnswer {
  status: number;
  headers: Record<string, string | string[] | number | undefined>;
  text: string;
  /** The body parsed as JSON, or undefined when it is not JSON. */
  json: unknown;
}

/**
 * Sends one request through the Express app without a socket or the HTTP parser: the request
 * is a real IncomingMessage fed with the body, the response a real ServerResponse writing into
 * memory. Fuzzing sends hundreds of thousands of requests, so the loopback round trip counts.
 */
export function inject(app: Express, request: InjectedRequest): Promise<InjectedAnswer> {
  return new Promise((resolve, reject) => {
    const written: Buffer[] = [];
    // Memory never pushes back, so the socket never asks for a pause: a ServerResponse waits
    // for a 'drain' that only an http.Server relays from its socket, and an answer larger
    // than the default 16 KiB mark (a CSV export of thousands of rows) would wait forever.
    const socket = new Writable({
      highWaterMark: Number.MAX_SAFE_INTEGER,
      write(chunk: Buffer, _encoding, done) {
        written.push(chunk);
        done();
      },
    });
    Object.assign(socket, {
      remoteAddress: request.remoteAddress ?? "127.0.0.1",
      remotePort: 40_000,
      encrypted: false,
      // on-finished (body-parser) takes a socket that cannot be read as a request already over.
      readable: true,
      setTimeout() {},
      setNoDelay() {},
      setKeepAlive() {},
      destroy() {},
    });

    const req = new IncomingMessage(socket as never);
    req.method = request.method;
    req.url = request.url;
    req.httpVersion = "1.1";
    req.httpVersionMajor = 1;
    req.httpVersionMinor = 1;
    const body =
      request.body === undefined
        ? undefined
        : typeof request.body === "string"
          ? Buffer.from(request.body, "utf8")
          : request.body;
    const headers: Record<string, string> = { host: "localhost" };
    for (const [name, value] of Object.entries(request.headers ?? {}))
      headers[name.toLowerCase()] = value;
    if (body !== undefined) headers["content-length"] = String(body.length);
    req.headers = headers;
    req.rawHeaders = Object.entries(headers).flat();
    if (body !== undefined && body.length > 0) req.push(body);
    req.push(null);
    req.complete = true;

    const res = new ServerResponse(req);
    res.shouldKeepAlive = false;
    res.assignSocket(socket as never);
    res.on("finish", () => {
      const raw = Buffer.concat(written);
      const split = raw.indexOf("\r\n\r\n");
      let payload: Buffer = raw.subarray(split + 4);
      if (/\r\ntransfer-encoding:\s*chunked/i.test(headOf(raw, split))) payload = unchunk(payload);
      const text = payload.toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        json = undefined;
      }
      resolve({ status: res.statusCode, headers: res.getHeaders(), text, json });
    });
    res.on("error", reject);
    app(req as never, res as never);
  });
}

function headOf(raw: Buffer, split: number): string {
  return raw.subarray(0, split).toString("latin1");
}

/** Undoes `Transfer-Encoding: chunked` (an answer without Content-Length). */
function unchunk(payload: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < payload.length) {
    const end = payload.indexOf("\r\n", at);
    const size = Number.parseInt(payload.subarray(at, end).toString("latin1"), 16);
    if (!size) break;
    parts.push(payload.subarray(end + 2, end + 2 + size));
    at = end + 2 + size + 2;
  }
  return Buffer.concat(parts);
}
