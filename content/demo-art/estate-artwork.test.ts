import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { ARCHITECTURES, TERRAINS } from "#domain/catalogue/catalogue-keys.ts";
import { ILLUSTRATION_HEIGHT, ILLUSTRATION_WIDTH } from "#domain/media/artwork.ts";
import { renderEstateSvg, type EstateScene } from "./estate-artwork.ts";

const scene = (over: Partial<EstateScene> = {}): EstateScene => ({
  seed: "castello-di-prova",
  terrain: "hills",
  architecture: "castle",
  index: 0,
  ...over,
});

describe("renderEstateSvg", () => {
  it("is 4:3 at 1600 x 1200", () => {
    expect(ILLUSTRATION_WIDTH).toBe(1600);
    expect(ILLUSTRATION_HEIGHT).toBe(1200);
    const svg = renderEstateSvg(scene());
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('viewBox="0 0 1600 1200"');
  });

  it("is deterministic: same scene, same string", () => {
    for (const terrain of TERRAINS) {
      const s = scene({ terrain, seed: `det-${terrain}`, index: 3 });
      expect(renderEstateSvg(s)).toBe(renderEstateSvg({ ...s }));
    }
  });

  it("varies across the images of one estate", () => {
    const svgs = Array.from({ length: 12 }, (_, index) => renderEstateSvg(scene({ index })));
    expect(new Set(svgs).size).toBe(12);
  });

  it("varies across estates", () => {
    const a = renderEstateSvg(scene({ seed: "villa-aurelia" }));
    const b = renderEstateSvg(scene({ seed: "villa-borghese" }));
    expect(a).not.toBe(b);
  });

  it("uses no text, images, filters or external references, and rounds coordinates", () => {
    for (const terrain of TERRAINS) {
      for (const architecture of ARCHITECTURES) {
        const svg = renderEstateSvg(
          scene({ terrain, architecture, seed: `clean-${terrain}`, index: 5 }),
        );
        // match()?.[0] keeps a failure message short (no 30 KB SVG dump)
        expect(svg.match(/<(text|image|filter|foreignObject|script|style)\b/)?.[0]).toBeUndefined();
        expect(svg.match(/(href|url)\(?["']?(?!#)[a-z]+:/i)?.[0]).toBeUndefined();
        expect(svg.match(/https?:\/\/(?!www\.w3\.org\/2000\/svg")/)?.[0]).toBeUndefined();
        expect(svg.match(/.{0,40}(NaN|undefined|Infinity)/)?.[0]).toBeUndefined();
        expect(svg.match(/ (d|cx|cy|r|x|y|width|height)="[^"]*\d\.\d{2}/)?.[0]).toBeUndefined();
      }
    }
  });

  it("stays small: every terrain x architecture x index under 60 KB", () => {
    for (const terrain of TERRAINS) {
      for (const architecture of ARCHITECTURES) {
        for (let index = 0; index < 12; index++) {
          const svg = renderEstateSvg(
            scene({ terrain, architecture, seed: `size-${architecture}`, index }),
          );
          expect(Buffer.byteLength(svg)).toBeLessThan(60 * 1024);
        }
      }
    }
  });

  describe("rasterises with sharp", () => {
    TERRAINS.forEach((terrain, t) => {
      ARCHITECTURES.forEach((architecture, a) => {
        // spread the indexes so night, dusk and close views are rasterised too
        const index = (t * ARCHITECTURES.length + a) % 12;
        it(`${terrain} x ${architecture} (image ${index})`, async () => {
          const svg = renderEstateSvg(
            scene({ terrain, architecture, seed: `raster-${terrain}-${architecture}`, index }),
          );
          const { data, info } = await sharp(Buffer.from(svg))
            .resize(400)
            .webp()
            .toBuffer({ resolveWithObject: true });
          expect(info.format).toBe("webp");
          expect(info.width).toBe(400);
          expect(info.height).toBe(300);
          const stats = await sharp(data).stats();
          const spread = Math.max(...stats.channels.slice(0, 3).map((ch) => ch.stdev));
          expect(spread).toBeGreaterThan(12);
        });
      });
    });
  });
});
