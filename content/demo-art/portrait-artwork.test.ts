import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { PORTRAIT_SIZE, renderPortraitSvg, type PortraitSpec } from "./portrait-artwork.ts";

const HAIRS: readonly PortraitSpec["hair"][] = ["short", "long", "bun", "bald", "curly", "wavy"];
const COLOURS: readonly PortraitSpec["hairColour"][] = [
  "black",
  "brown",
  "chestnut",
  "blonde",
  "grey",
  "auburn",
];
const ATTIRES: readonly PortraitSpec["attire"][] = [
  "suit",
  "blazer",
  "turtleneck",
  "blouse",
  "shirt",
];

const spec = (over: Partial<PortraitSpec> = {}): PortraitSpec => ({
  seed: "giulia-conti",
  skinTone: 2,
  hair: "short",
  hairColour: "brown",
  attire: "blazer",
  hasGlasses: false,
  hasBeard: false,
  ...over,
});

describe("renderPortraitSvg", () => {
  it("is square at 1200 x 1200", () => {
    expect(PORTRAIT_SIZE).toBe(1200);
    const svg = renderPortraitSvg(spec());
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg).toContain('viewBox="0 0 1200 1200"');
  });

  it("is deterministic: same spec, same string", () => {
    for (const hair of HAIRS) {
      for (const attire of ATTIRES) {
        const s = spec({ hair, attire, seed: `det-${hair}`, hasGlasses: true, hasBeard: true });
        expect(renderPortraitSvg(s)).toBe(renderPortraitSvg({ ...s }));
      }
    }
  });

  it("differs when any part of the spec differs", () => {
    const base = spec();
    const variants: PortraitSpec[] = [
      base,
      spec({ seed: "marco-ferri" }),
      spec({ skinTone: 4 }),
      spec({ hair: "curly" }),
      spec({ hairColour: "grey" }),
      spec({ attire: "suit" }),
      spec({ hasGlasses: true }),
      spec({ hasBeard: true }),
    ];
    const svgs = variants.map(renderPortraitSvg);
    expect(new Set(svgs).size).toBe(variants.length);
  });

  it("varies across seeds", () => {
    const svgs = Array.from({ length: 16 }, (_, i) => renderPortraitSvg(spec({ seed: `p-${i}` })));
    expect(new Set(svgs).size).toBe(16);
  });

  it("uses no text, images, filters or external references, and rounds coordinates", () => {
    for (const hair of HAIRS) {
      for (const attire of ATTIRES) {
        const svg = renderPortraitSvg(
          spec({ hair, attire, seed: `clean-${hair}-${attire}`, hasGlasses: true, hasBeard: true }),
        );
        // match()?.[0] keeps a failure message short (no 30 KB SVG dump)
        expect(
          svg.match(/<(text|image|filter|feGaussianBlur|foreignObject|script|style)\b/)?.[0],
        ).toBeUndefined();
        expect(svg.match(/(href|url)\(?["']?(?!#)[a-z]+:/i)?.[0]).toBeUndefined();
        expect(svg.match(/https?:\/\/(?!www\.w3\.org\/2000\/svg")/)?.[0]).toBeUndefined();
        expect(svg.match(/.{0,40}(NaN|undefined|Infinity)/)?.[0]).toBeUndefined();
        expect(
          svg.match(/ (d|cx|cy|r|x|y|x1|y1|x2|y2|width|height)="[^"]*\d\.\d{2}/)?.[0],
        ).toBeUndefined();
      }
    }
  });

  it("stays under 30 KB for every combination", () => {
    let largest = 0;
    for (const hair of HAIRS) {
      for (const attire of ATTIRES) {
        for (const hairColour of COLOURS) {
          for (let skinTone = 0; skinTone <= 5; skinTone++) {
            const svg = renderPortraitSvg({
              seed: `size-${hair}-${attire}-${hairColour}-${skinTone}`,
              skinTone,
              hair,
              hairColour,
              attire,
              hasGlasses: skinTone % 2 === 0,
              hasBeard: skinTone % 3 === 0,
            });
            largest = Math.max(largest, Buffer.byteLength(svg));
          }
        }
      }
    }
    expect(largest).toBeLessThan(30 * 1024);
  });

  it("tolerates out-of-range and fractional skin tones", () => {
    for (const skinTone of [-3, 2.5, 9, Number.NaN]) {
      const svg = renderPortraitSvg(spec({ skinTone }));
      expect(svg.match(/.{0,40}(NaN|undefined|Infinity)/)?.[0]).toBeUndefined();
    }
  });

  describe("rasterises with sharp", () => {
    HAIRS.forEach((hair, h) => {
      ATTIRES.forEach((attire, a) => {
        const i = h * ATTIRES.length + a;
        const s = spec({
          seed: `raster-${hair}-${attire}`,
          hair,
          attire,
          skinTone: i % 6,
          hairColour: COLOURS[i % COLOURS.length],
          hasGlasses: i % 3 === 0,
          hasBeard: i % 4 === 1,
        });
        it(`${hair} x ${attire}`, async () => {
          const { data, info } = await sharp(Buffer.from(renderPortraitSvg(s)))
            .resize(300)
            .webp()
            .toBuffer({ resolveWithObject: true });
          expect(info.format).toBe("webp");
          expect(info.width).toBe(300);
          expect(info.height).toBe(300);
          const stats = await sharp(data).stats();
          const spread = Math.max(...stats.channels.slice(0, 3).map((ch) => ch.stdev));
          expect(spread).toBeGreaterThan(12);
        });
      });
    });
  });
});
