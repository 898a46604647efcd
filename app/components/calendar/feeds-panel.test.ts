import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { FEED_ERROR_CODES, SKIPPED_EVENT_REASONS } from "#domain/calendar/feed-errors.ts";
import { LANGUAGES } from "#i18n/config.ts";
import { createI18n } from "#i18n/instance.ts";
import { RESOURCES } from "#i18n/resources.ts";
import type { CalendarFeed, FeedsPanelApi } from "./feeds-api.ts";
import { FeedsPanel } from "./feeds-panel.tsx";

const ICAL_URL =
  "https://castellum.example/api/ical/7.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ.ics";

/** A feed's choices and last findings as a new feed has them. */
const CHOICES = {
  timedEventsClose: true,
  passOn: false,
  nightsClosed: 0,
  timedNightsClosed: 0,
  skippedEvents: [],
  skippedCount: 0,
} satisfies Partial<CalendarFeed>;

const FEEDS: CalendarFeed[] = [
  {
    id: "6f1c1d9e-0c7b-4a8e-9f55-2b1e0d7f3a10",
    url: "https://www.airbnb.com/calendar/ical/123.ics?s=secret",
    createdAt: "2026-06-01T10:00:00.000Z",
    lastAttemptAt: "2026-06-15T12:00:00.000Z",
    lastSuccessAt: "2026-06-15T12:00:00.000Z",
    lastError: null,
    eventCount: 4,
    nextSyncAt: "2026-06-15T12:30:00.000Z",
    ...CHOICES,
  },
  {
    id: "0b4e0a3c-94a1-4c69-8f0b-5a7c2e9d1f22",
    url: "https://admin.booking.com/hotel/ical/export.ics",
    createdAt: "2026-06-01T10:00:00.000Z",
    lastAttemptAt: "2026-06-15T12:00:00.000Z",
    lastSuccessAt: null,
    lastError: { code: "timeout", detail: "no complete answer within 10000 ms" },
    eventCount: 0,
    nextSyncAt: "2026-06-15T12:30:00.000Z",
    ...CHOICES,
  },
];

const NO_CALLS: FeedsPanelApi = {
  add: () => Promise.reject(new Error("not called")),
  remove: () => Promise.reject(new Error("not called")),
  sync: () => Promise.reject(new Error("not called")),
  update: () => Promise.reject(new Error("not called")),
  rotate: () => Promise.reject(new Error("not called")),
};

function render(language: (typeof LANGUAGES)[number], syncMinutes = 30, feeds = FEEDS) {
  const i18n = createI18n(language, RESOURCES[language]);
  return renderToStaticMarkup(
    createElement(
      I18nextProvider,
      { i18n },
      createElement(FeedsPanel, { icalUrl: ICAL_URL, feeds, api: NO_CALLS, syncMinutes }),
    ),
  );
}

describe("FeedsPanel", () => {
  it("shows the export address, each feed with its last read and its problem, and the form", () => {
    const html = render("en");
    expect(html).toContain(`value="${ICAL_URL}"`);
    expect(html).toContain("Private calendar address");
    expect(html).toContain("They are read every 30 minutes.");
    // A one-minute interval reads as one, in each language.
    expect(render("en", 1)).toContain("They are read every minute.");
    expect(render("fr", 1)).toContain("Ils sont lus chaque minute.");
    expect(html).toContain("https://www.airbnb.com/calendar/ical/123.ics?s=secret");
    expect(html).toContain("Read without problems");
    expect(html).toContain("The calendar&#x27;s server took too long to answer.");
    // A feed never read says when it was tried and why it failed, not "Not yet read".
    expect(html).not.toContain("Not yet read");
    expect(html).toContain("Tried Jun 15, 2026, 12:00 UTC, not read");
    expect(html).toContain("no complete answer within 10000 ms");
    expect(html).toContain("Add a calendar address");
    expect(html).not.toContain("owner.calendarFeeds");
  });

  it("speaks the page's language, every key translated", () => {
    expect(render("fr")).toContain("Le serveur du calendrier a mis trop de temps à répondre.");
    expect(render("zh")).toContain("日历的服务器响应时间过长。");
    for (const language of LANGUAGES) {
      const html = render(language, 30, []);
      expect(html, language).not.toContain("owner.calendarFeeds");
    }
  });

  it("lists the events a read left out, with why, and what the feed's events close", () => {
    const partly: CalendarFeed = {
      ...FEEDS[0]!,
      nightsClosed: 548,
      timedNightsClosed: 540,
      skippedEvents: [
        { uid: "broken@other", summary: "Viewing", line: 12, reason: "no_start", detail: "x" },
        { uid: null, summary: null, line: 40, reason: "unreadable", detail: "y" },
      ],
      skippedCount: 25,
    };
    const html = render("en", 30, [partly]);
    expect(html).toContain("25 events could not be read and were left out; the others were read.");
    expect(html).toContain("Line 12");
    expect(html).toContain("broken@other");
    expect(html).toContain("it has no readable start date");
    expect(html).toContain("its text cannot be read");
    expect(html).toContain("and 23 more");
    expect(html).toContain("Closes 548 nights from today (540 by timed events)");
    expect(html).toContain("Timed events close nights");
    expect(html).toContain("Pass on in our export");
    const fr = render("fr", 30, [partly]);
    expect(fr).toContain("sa date de début est illisible");
    expect(fr).toContain("Ferme 548 nuits à partir d’aujourd’hui");
    for (const language of LANGUAGES)
      expect(render(language, 30, [partly]), language).not.toContain("owner.calendarFeeds");
    // A feed with nothing left out shows no such list.
    expect(html.match(/could not be read and were left out/g)).toHaveLength(1);
    expect(render("en")).not.toContain("left out");
  });

  it("shows each feed's choices as they are stored", () => {
    const chosen: CalendarFeed = { ...FEEDS[0]!, timedEventsClose: false, passOn: true };
    const html = render("en", 30, [chosen]);
    const box = (name: string) =>
      new RegExp(`<input[^>]*id="feed-${chosen.id}-${name}"[^>]*>`).exec(html)?.[0] ?? "";
    expect(box("timed")).toContain('type="checkbox"');
    expect(box("timed")).not.toContain("checked");
    expect(box("pass-on")).toContain('checked=""');
  });

  it("has a translated reason for every event a read can leave out", () => {
    for (const language of LANGUAGES) {
      const reasons = RESOURCES[language].owner.calendarFeeds.skipped.reasons as Record<
        string,
        string
      >;
      expect(Object.keys(reasons).sort(), language).toEqual([...SKIPPED_EVENT_REASONS].sort());
    }
  });

  it("has a translated reason for every error a sync can record", () => {
    for (const language of LANGUAGES) {
      const reasons = RESOURCES[language].owner.calendarFeeds.feedErrors as Record<string, string>;
      expect(Object.keys(reasons).sort(), language).toEqual([...FEED_ERROR_CODES].sort());
    }
  });
});
