import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { describe, expect, it } from "vitest";
import { FEED_ERROR_CODES } from "../../../domain/calendar/feed-errors.ts";
import { LANGUAGES } from "../../../i18n/config.ts";
import { createI18n } from "../../../i18n/instance.ts";
import { RESOURCES } from "../../../i18n/resources.ts";
import type { CalendarFeed, FeedsPanelApi } from "./feeds-api.ts";
import { FeedsPanel } from "./feeds-panel.tsx";

const ICAL_URL =
  "https://castellum.example/api/ical/7.abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ.ics";

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
  },
];

const NO_CALLS: FeedsPanelApi = {
  add: () => Promise.reject(new Error("not called")),
  remove: () => Promise.reject(new Error("not called")),
  sync: () => Promise.reject(new Error("not called")),
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

  it("has a translated reason for every error a sync can record", () => {
    for (const language of LANGUAGES) {
      const reasons = RESOURCES[language].owner.calendarFeeds.feedErrors as Record<string, string>;
      expect(Object.keys(reasons).sort(), language).toEqual([...FEED_ERROR_CODES].sort());
    }
  });
});
