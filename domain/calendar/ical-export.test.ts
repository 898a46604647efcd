import { expect, it } from "vitest";
import { DEMO_CATALOGUE, describeEachBackend } from "#tests/setup/database.ts";
import { NotFoundError } from "../errors.ts";
import { calendarExportToken, estateOfExportToken, rotateCalendarExport } from "./ical-export.ts";

describeEachBackend("an estate's export feed token", (database) => {
  const estate = DEMO_CATALOGUE[0]!;

  it("opens its own estate, and stops when rotated", async () => {
    const { deps } = database();
    const token = await calendarExportToken(deps, estate.id);
    expect(await estateOfExportToken(deps, token)).toBe(estate.id);
    await rotateCalendarExport(deps, estate.id);
    expect(await estateOfExportToken(deps, token)).toBeNull();
    const next = await calendarExportToken(deps, estate.id);
    expect(next).not.toBe(token);
    expect(await estateOfExportToken(deps, next)).toBe(estate.id);
  });

  // The calendar call reads the estate and its token at once: an unknown estate must be the
  // same not-found from either side, not a foreign-key failure from the token's (a 500).
  it("says an unknown estate is not found, and writes nothing for it", async () => {
    const { deps } = database();
    await expect(calendarExportToken(deps, 999_999)).rejects.toBeInstanceOf(NotFoundError);
    await expect(rotateCalendarExport(deps, 999_999)).rejects.toBeInstanceOf(NotFoundError);
    await expect(calendarExportToken(deps, 999_999)).rejects.toBeInstanceOf(NotFoundError);
  });
});
