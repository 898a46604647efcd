import { describe, expect, it } from "vitest";
import { checkUploadFile, MAX_UPLOAD_BYTES, runInPool } from "./upload-files.ts";

describe("files offered for upload", () => {
  it("takes JPEG, PNG, WebP and AVIF up to the size limit", () => {
    for (const type of ["image/jpeg", "image/png", "image/webp", "image/avif"])
      expect(checkUploadFile({ type, size: MAX_UPLOAD_BYTES })).toBeNull();
  });

  it("refuses other types, whatever their size", () => {
    expect(checkUploadFile({ type: "image/gif", size: 10 })).toEqual({
      message: "owner.errors.uploadType",
      params: {},
    });
    expect(checkUploadFile({ type: "", size: 10 })?.message).toBe("owner.errors.uploadType");
  });

  it("refuses a file above 20 MB, naming the limit", () => {
    expect(checkUploadFile({ type: "image/png", size: MAX_UPLOAD_BYTES + 1 })).toEqual({
      message: "owner.errors.uploadTooLarge",
      params: { max: 20 },
    });
  });
});

describe("the upload pool", () => {
  it("runs every item, never more than the limit at once, starting in list order", async () => {
    let running = 0;
    let peak = 0;
    const started: number[] = [];
    await runInPool([1, 2, 3, 4, 5], 2, async (item) => {
      started.push(item);
      running += 1;
      peak = Math.max(peak, running);
      // Uneven work (a few microtask turns), so the items overlap and finish out of order.
      for (let turn = 0; turn < (item % 2 ? 3 : 1); turn += 1) await Promise.resolve();
      running -= 1;
    });
    expect(started).toEqual([1, 2, 3, 4, 5]);
    expect(peak).toBe(2);
  });

  it("does nothing for an empty list", async () => {
    let calls = 0;
    await runInPool([], 2, async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
  });
});
