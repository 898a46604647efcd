import { expect, it } from "vitest";
import sharp from "sharp";
import { ErrorSchema } from "#domain/api/operation.ts";
import { listCastles } from "#domain/catalogue/catalogue.contract.ts";
import { expectAnswer, readJson } from "#tests/setup/api.ts";
import { describeEachBackend } from "#tests/setup/database.ts";
import { serveApp } from "#tests/setup/http.ts";

describeEachBackend("GET /media/{key}/{width}.{format}", (database) => {
  const url = serveApp(() => database().deps);
  const firstImage = async () => {
    const [property] = await expectAnswer(listCastles, await fetch(`${url()}/api/castles`), 200);
    const image = property?.images?.[0];
    if (!image) throw new Error("the first estate has no image");
    return image.replace(/\/800\.jpg$/, "");
  };

  it.each([
    ["webp", "image/webp", 640],
    ["jpg", "image/jpeg", 320],
    ["avif", "image/avif", 480],
  ])("renders %s at the asked width with immutable caching", async (format, type, width) => {
    const base = await firstImage();
    const response = await fetch(`${url()}${base}/${width}.${format}`);
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe(type);
    expect(response.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const metadata = await sharp(Buffer.from(await response.arrayBuffer())).metadata();
    expect(metadata.width).toBe(width);
    expect(metadata.height).toBe((width * 3) / 4);
  });

  it("serves the cached variant with the same ETag and 304 on If-None-Match", async () => {
    const base = await firstImage();
    const first = await fetch(`${url()}${base}/800.webp`);
    const second = await fetch(`${url()}${base}/800.webp`);
    const etag = first.headers.get("etag");
    expect(etag).toMatch(/^".+"$/);
    expect(second.headers.get("etag")).toBe(etag);
    expect(Buffer.from(await second.arrayBuffer())).toEqual(Buffer.from(await first.arrayBuffer()));
    const revalidated = await fetch(`${url()}${base}/800.webp`, {
      // As a browser revalidating on reload sends it (fetch would add no-cache otherwise).
      headers: { "If-None-Match": etag ?? "", "Cache-Control": "max-age=0" },
    });
    expect(revalidated.status).toBe(304);
  });

  it("refuses a width or format outside the fixed set with 400 {message}", async () => {
    const base = await firstImage();
    const width = await fetch(`${url()}${base}/801.webp`);
    expect(width.status).toBe(400);
    expect(ErrorSchema.parse(await readJson(width)).message).toMatch(
      /320, 480, 640, 800, 1200, 1600/,
    );
    const format = await fetch(`${url()}${base}/800.gif`);
    expect(format.status).toBe(400);
    expect(ErrorSchema.parse(await readJson(format)).message).toMatch(/avif, webp, jpg/);
  });

  it("answers 404 {message} for an unknown image", async () => {
    const response = await fetch(`${url()}/media/no-such-image-1-abc/800.webp`);
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: "Image not found", code: "media_not_found" });
  });
});
