import type { BlockInput } from "#domain/calendar/block.schema.ts";
import {
  addEstateBlock,
  type AddedBlockAnswer,
  addOwnerBlock,
  type CalendarBlockAnswer,
  removeEstateBlock,
  removeOwnerBlock,
} from "#domain/calendar/calendar.contract.ts";
import type { CalendarCollision } from "#domain/calendar/calendar.schema.ts";
import { callApi, type FieldError } from "#app/api-client.ts";

/**
 * Whose calls change the calendar: staff's own (`/api/admin/estates/{id}/…`) on the staff
 * page, the owner's (`/api/property-owners/…`, which a staff admin may also use) on the owner
 * dashboard.
 */
export type CalendarTarget =
  { area: "staff"; estateId: number } | { area: "owner"; propertyId: number };

export type BlockAdded =
  | {
      ok: true;
      block: CalendarBlockAnswer;
      /** Pending requests the block lies over: it stands, and the form says so. */
      pendingRequests: AddedBlockAnswer["pendingRequests"];
    }
  | {
      ok: false;
      collision: CalendarCollision | null;
      message: string | null;
      errors: FieldError[];
    };

/** Blocks the nights; a 201 names the pending requests on them, a 409 what they collide with. */
export async function addCalendarBlock(
  target: CalendarTarget,
  body: BlockInput,
  language: string,
): Promise<BlockAdded> {
  const answer =
    target.area === "staff"
      ? await callApi(addEstateBlock, { params: { id: target.estateId }, body }, { language })
      : await callApi(
          addOwnerBlock,
          { query: { propertyId: target.propertyId }, body },
          { language },
        );
  if (answer.ok) {
    const { pendingRequests, ...block } = answer.data;
    return { ok: true, block, pendingRequests };
  }
  return {
    ok: false,
    collision: answer.status === 409 ? (answer.data ?? null) : null,
    message: answer.message,
    errors: answer.errors,
  };
}

/** Removes the block; the refusal's message, in the page's language, when it is not removed. */
export async function removeCalendarBlock(
  target: CalendarTarget,
  blockId: string,
  language: string,
): Promise<{ ok: true } | { ok: false; message: string | null }> {
  const answer =
    target.area === "staff"
      ? await callApi(removeEstateBlock, { params: { id: target.estateId, blockId } }, { language })
      : await callApi(
          removeOwnerBlock,
          { params: { blockId }, query: { propertyId: target.propertyId } },
          { language },
        );
  return answer.ok ? { ok: true } : { ok: false, message: answer.message };
}
