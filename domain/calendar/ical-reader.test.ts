import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { DEFAULT_IMPORT_LIMITS, IcalImportError } from "./ical-import.ts";
import { readCalendarOffThread } from "./ical-reader.ts";

const NOW = new Date("2026-06-15T12:00:00Z");

const calendar = (...events: string[]) =>
  `BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//Feeds//EN\r\n${events
    .map((event) => `BEGIN:VEVENT\r\n${event.replace(/\n/g, "\r\n")}\r\nEND:VEVENT`)
    .join("\r\n")}\r\nEND:VCALENDAR\r\n`;

/** Twenty hourly series of 1,000 instances: within every budget, and a second of work. */
const HEAVY = calendar(
  ...Array.from(
    { length: 20 },
    (_, i) =>
      `UID:heavy-${i}\nDTSTAMP:20260601T000000Z\nDTSTART:20260701T000000Z\nDTEND:20260701T003000Z\nRRULE:FREQ=HOURLY;COUNT=1000`,
  ),
);

describe("reading a feed off the server's thread", () => {
  it("answers as the reader does, for a calendar and for text that is not one", async () => {
    const { busy } = await readCalendarOffThread(
      calendar(
        "UID:stay\nDTSTAMP:20260601T000000Z\nDTSTART;VALUE=DATE:20260705\nDTEND;VALUE=DATE:20260710",
      ),
      NOW,
    );
    expect(busy).toEqual([{ uid: "stay", start: "2026-07-05", end: "2026-07-10", isTimed: false }]);
    await expect(readCalendarOffThread("<html></html>", NOW)).rejects.toMatchObject({
      code: "not_calendar",
    });
  });

  it("keeps the server answering while a hostile feed is read, and stops that read at its cap", async () => {
    const server = createServer((_req, res) => res.end("ok"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    try {
      // Capped, the hostile feed is stopped at its time limit with a clear error.
      const error = await readCalendarOffThread(HEAVY, NOW, {
        limits: { ...DEFAULT_IMPORT_LIMITS, maxReadMs: 100 },
      }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(IcalImportError);
      expect(error).toMatchObject({
        code: "too_many_events",
        detail: "reading the calendar took longer than 100 ms",
      });
      // Given its time, the same feed is read whole, and a request asked after the read began
      // is answered while it is still going, not after it. The whole read is the long one, so
      // the order does not depend on how fast a loaded machine answers a request.
      const order: string[] = [];
      const roomy = { ...DEFAULT_IMPORT_LIMITS, maxEvents: 100_000, maxReadMs: 60_000 };
      const read = readCalendarOffThread(HEAVY, NOW, { limits: roomy }).then((result) => {
        order.push("read");
        return result;
      });
      const answer = await fetch(`http://127.0.0.1:${port}/`).then((response) => response.text());
      order.push("request");
      expect(answer).toBe("ok");
      expect((await read).busy).toHaveLength(20_000);
      expect(order).toEqual(["request", "read"]);
    } finally {
      server.close();
    }
  });
});
