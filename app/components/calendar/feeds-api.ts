import type { z } from "zod";
import {
  addEstateCalendarFeed,
  addOwnerCalendarFeed,
  type CalendarFeedSchema,
  removeEstateCalendarFeed,
  removeOwnerCalendarFeed,
  rotateEstateIcalUrl,
  rotateOwnerIcalUrl,
  syncEstateCalendarFeed,
  syncOwnerCalendarFeed,
  updateEstateCalendarFeed,
  updateOwnerCalendarFeed,
} from "#domain/calendar/feeds.contract.ts";
import type { CalendarFeedSettings } from "#domain/calendar/feed-settings.schema.ts";
import { callApi, type FieldError } from "#app/api-client.ts";

/** A feed as the browser receives it (times as ISO strings). */
export type CalendarFeed = z.output<typeof CalendarFeedSchema>;

/** What a call of the panel answers: its data, or the server's message and field issues. */
export type FeedsResult<T> =
  { ok: true; data: T } | { ok: false; message: string | null; errors: FieldError[] };

/**
 * The calls the feeds panel makes, bound to one estate: the staff's calls on an estate
 * (`staffFeedsApi`) or the owner's on their own (`ownerFeedsApi`).
 */
export interface FeedsPanelApi {
  add(url: string): Promise<FeedsResult<CalendarFeed>>;
  remove(feedId: string): Promise<FeedsResult<null>>;
  sync(feedId: string): Promise<FeedsResult<CalendarFeed>>;
  update(feedId: string, settings: CalendarFeedSettings): Promise<FeedsResult<CalendarFeed>>;
  rotate(): Promise<FeedsResult<{ icalUrl: string }>>;
}

/** A refusal (or no answer), as the panel shows it. */
function failure(answer: { message: string | null; errors: FieldError[] }): FeedsResult<never> {
  return { ok: false, message: answer.message, errors: answer.errors };
}

/** The staff's calls on estate `estateId`. */
export function staffFeedsApi(estateId: number, language: string): FeedsPanelApi {
  const options = { language };
  return {
    async add(url) {
      const answer = await callApi(
        addEstateCalendarFeed,
        { params: { id: estateId }, body: { url } },
        options,
      );
      return answer.ok && answer.status === 201 ? { ok: true, data: answer.data } : failure(answer);
    },
    async remove(feedId) {
      const answer = await callApi(
        removeEstateCalendarFeed,
        { params: { id: estateId, feedId } },
        options,
      );
      return answer.ok && answer.status === 204 ? { ok: true, data: null } : failure(answer);
    },
    async sync(feedId) {
      const answer = await callApi(
        syncEstateCalendarFeed,
        { params: { id: estateId, feedId } },
        options,
      );
      return answer.ok && answer.status === 200 ? { ok: true, data: answer.data } : failure(answer);
    },
    async update(feedId, settings) {
      const answer = await callApi(
        updateEstateCalendarFeed,
        { params: { id: estateId, feedId }, body: settings },
        options,
      );
      return answer.ok && answer.status === 200 ? { ok: true, data: answer.data } : failure(answer);
    },
    async rotate() {
      const answer = await callApi(rotateEstateIcalUrl, { params: { id: estateId } }, options);
      return answer.ok && answer.status === 200 ? { ok: true, data: answer.data } : failure(answer);
    },
  };
}

/** The owner's calls on their estate `propertyId` (staff may make them too, naming it). */
export function ownerFeedsApi(propertyId: number, language: string): FeedsPanelApi {
  const options = { language };
  const query = { propertyId };
  return {
    async add(url) {
      const answer = await callApi(
        addOwnerCalendarFeed,
        { query, body: { url, propertyId } },
        options,
      );
      return answer.ok && answer.status === 201 ? { ok: true, data: answer.data } : failure(answer);
    },
    async remove(feedId) {
      const answer = await callApi(removeOwnerCalendarFeed, { params: { feedId }, query }, options);
      return answer.ok && answer.status === 204 ? { ok: true, data: null } : failure(answer);
    },
    async sync(feedId) {
      const answer = await callApi(syncOwnerCalendarFeed, { params: { feedId }, query }, options);
      return answer.ok && answer.status === 200 ? { ok: true, data: answer.data } : failure(answer);
    },
    async update(feedId, settings) {
      const answer = await callApi(
        updateOwnerCalendarFeed,
        { params: { feedId }, query, body: settings },
        options,
      );
      return answer.ok && answer.status === 200 ? { ok: true, data: answer.data } : failure(answer);
    },
    async rotate() {
      const answer = await callApi(rotateOwnerIcalUrl, { query }, options);
      return answer.ok && answer.status === 200 ? { ok: true, data: answer.data } : failure(answer);
    },
  };
}
