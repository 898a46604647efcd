import { request } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

export interface RawAnswer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes as sent (still compressed when Content-Encoding says so). */
  raw: Buffer;
  /** The body after undoing Content-Encoding. */
  text: string;
}

/**
 * A request as sent on the wire: no automatic Accept-Encoding and no transparent
 * decompression, unlike fetch, so a test sees which encoding the server chose; and any method
 * Node's parser knows (fetch refuses TRACE and TRACK).
 */
export function rawRequest(
  url: string,
  headers: Record<string, string> = {},
  method = "GET",
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    // A connection of its own: Node's global agent keeps sockets alive, and one the server
    // closed as idle (5 s; a long seed in between) would fail the next request with ECONNRESET.
    const req = request(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("error", reject);
      res.on("end", () => {
        const raw = Buffer.concat(chunks);
        const encoding = res.headers["content-encoding"];
        const decoded =
          encoding === "br"
            ? brotliDecompressSync(raw)
            : encoding === "gzip"
              ? gunzipSync(raw)
              : raw;
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          raw,
          text: decoded.toString("utf8"),
        });
      });
    });
    req.on("error", reject);
    req.end();
  });
}
