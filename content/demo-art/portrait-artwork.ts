/**
 * Deterministic team portraits: painted, calm, flat-gradient head-and-shoulders SVGs in the
 * same travel-poster style as the estate illustrations.
 *
 * Same spec in, byte-identical SVG out. The face (proportions, pose, light, backdrop) is derived
 * from the seed alone, so changing hair or attire keeps the same person. No text, fonts,
 * filters or external references.
 */

import { clamp, mix, smoothstep } from "./colour.ts";
import { makeRng, type Rng } from "./seeded-random.ts";

export interface PortraitSpec {
  seed: string;
  skinTone: number; // 0..5, light to deep
  hair: "short" | "long" | "bun" | "bald" | "curly" | "wavy";
  hairColour: "black" | "brown" | "chestnut" | "blonde" | "grey" | "auburn";
  attire: "suit" | "blazer" | "turtleneck" | "blouse" | "shirt";
  hasGlasses: boolean;
  hasBeard: boolean;
}

export const PORTRAIT_SIZE = 1200;

const S = PORTRAIT_SIZE;

// ---------------------------------------------------------------------------------------------
// Numbers, colours, paths
// ---------------------------------------------------------------------------------------------

/** A point; a third element of 1 marks a sharp corner in smooth paths. */
type Pt = readonly [number, number, number?];

const f = (n: number): string => String(Math.round(n * 10) / 10 || 0);
const lerp = (a: number, b: number, t: number): number => a + (b - a) * t;

const pt = (p: Pt): string => `${f(p[0])} ${f(p[1])}`;

/** Catmull-Rom spline through the points, as cubic Béziers. */
function smoothD(p: readonly Pt[], closed = true, k = 1): string {
  const n = p.length;
  const at = (i: number): Pt => (closed ? p[(i + n) % n] : p[clamp(i, 0, n - 1)]) as Pt;
  let d = `M${pt(at(0))}`;
  const segs = closed ? n : n - 1;
  for (let i = 0; i < segs; i++) {
    const p0 = at(i - 1);
    const p1 = at(i);
    const p2 = at(i + 1);
    const p3 = at(i + 2);
    const k1 = p1[2] ? 0 : k / 6;
    const k2 = p2[2] ? 0 : k / 6;
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) * k1, p1[1] + (p2[1] - p0[1]) * k1];
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) * k2, p2[1] - (p3[1] - p1[1]) * k2];
    d += `C${pt(c1)} ${pt(c2)} ${pt(p2)}`;
  }
  return d + (closed ? "Z" : "");
}

function polyD(p: readonly Pt[]): string {
  return "M" + p.map(pt).join("L") + "Z";
}

function ellipseD(cx: number, cy: number, rx: number, ry: number): string {
  return `M${f(cx - rx)} ${f(cy)}a${f(rx)} ${f(ry)} 0 1 0 ${f(2 * rx)} 0a${f(rx)} ${f(ry)} 0 1 0 ${f(-2 * rx)} 0Z`;
}

function archD(x: number, y: number, w: number, h: number): string {
  const r = w / 2;
  return `M${f(x)} ${f(y + h)}V${f(y + r)}a${f(r)} ${f(r)} 0 0 1 ${f(w)} 0V${f(y + h)}Z`;
}

const op = (o: number): string => (o >= 1 ? "" : ` opacity="${Math.round(o * 100) / 100}"`);

const path = (d: string, fill: string, o = 1): string => `<path d="${d}" fill="${fill}"${op(o)}/>`;

const line = (d: string, stroke: string, width: number, o = 1): string =>
  `<path d="${d}" fill="none" stroke="${stroke}" stroke-width="${f(width)}" stroke-linecap="round" stroke-linejoin="round"${op(o)}/>`;

// ---------------------------------------------------------------------------------------------
// Palettes
// ---------------------------------------------------------------------------------------------

const GREEN = "#1F3D2B";
const GOLD = "#A07A3F";
const IVORY = "#FAF7F0";
const BURGUNDY = "#7A1F2B";

const SKIN = ["#f3d7c3", "#e7bd9d", "#d19c75", "#ae7651", "#86563a", "#5b3828"] as const;

const HAIR: Record<PortraitSpec["hairColour"], string> = {
  black: "#231d1b",
  brown: "#4d3426",
  chestnut: "#6e3d22",
  blonde: "#c6a066",
  grey: "#aaa59e",
  auburn: "#8b3e22",
};

const EYES = ["#3a281e", "#4f3522", "#6a5532", "#4d5b48", "#4a5e72"] as const;

interface Backdrop {
  top: string;
  bottom: string;
  glow: string;
  motif: string;
  deep: string;
}

const BACKDROPS: readonly Backdrop[] = [
  // sage
  {
    top: mix(GREEN, IVORY, 0.62),
    bottom: mix(GREEN, IVORY, 0.42),
    glow: IVORY,
    motif: mix(GREEN, IVORY, 0.5),
    deep: GREEN,
  },
  // heritage green, gold light
  {
    top: mix(GREEN, GOLD, 0.22),
    bottom: mix(GREEN, "#0d1a12", 0.25),
    glow: mix(GOLD, IVORY, 0.45),
    motif: mix(GREEN, GOLD, 0.35),
    deep: "#0f1d14",
  },
  // stone ivory
  {
    top: mix(IVORY, GOLD, 0.22),
    bottom: mix(IVORY, GOLD, 0.42),
    glow: IVORY,
    motif: mix(IVORY, GOLD, 0.34),
    deep: mix(GOLD, GREEN, 0.4),
  },
  // antique gold
  {
    top: mix(GOLD, IVORY, 0.5),
    bottom: mix(GOLD, GREEN, 0.18),
    glow: mix(IVORY, GOLD, 0.15),
    motif: mix(GOLD, IVORY, 0.3),
    deep: mix(GOLD, "#2a1a0c", 0.5),
  },
  // burgundy rose
  {
    top: mix(BURGUNDY, IVORY, 0.62),
    bottom: mix(BURGUNDY, IVORY, 0.4),
    glow: mix(IVORY, GOLD, 0.12),
    motif: mix(BURGUNDY, IVORY, 0.5),
    deep: mix(BURGUNDY, "#1a0a0c", 0.4),
  },
  // deep burgundy
  {
    top: mix(BURGUNDY, GOLD, 0.2),
    bottom: mix(BURGUNDY, "#1a0a0c", 0.3),
    glow: mix(GOLD, IVORY, 0.5),
    motif: mix(BURGUNDY, GOLD, 0.32),
    deep: "#2a0c10",
  },
];

// ---------------------------------------------------------------------------------------------
// Context
// ---------------------------------------------------------------------------------------------

interface Face {
  cx: number;
  top: number; // crown
  len: number; // crown to chin
  hw: number; // half width at the cheekbones
  phi: number; // head turn, radians (positive: face turned to the viewer's right)
  sn: number;
  cs: number;
  jaw: number;
  chin: number;
  cheek: number;
  brow: number;
  eyeSep: number;
  eyeW: number;
  eyeH: number;
  eyeTilt: number;
  browFy: number;
  browW: number;
  browArch: number;
  noseFy: number;
  noseW: number;
  noseProj: number;
  mouthFy: number;
  mouthW: number;
  lipFull: number;
  hairline: number;
  volume: number;
  parting: number; // -1 left, 1 right
  tilt: number; // degrees
  lightSide: number; // -1 light from the left, 1 from the right
  eye: string;
  shoulders: number;
  neck: number;
}

interface Ctx {
  spec: PortraitSpec;
  r: Rng;
  g: Face;
  defs: string[];
  body: string[];
  ids: number;
  skin: string;
  skinHi: string;
  skinLo: string;
  hair: string;
  bd: Backdrop;
}

function gid(c: Ctx): string {
  c.ids += 1;
  return `p${c.ids}`;
}

type Stop = readonly [number, string, number?];

function stops(s: readonly Stop[]): string {
  return s
    .map(
      ([o, col, a]) =>
        `<stop offset="${f(o)}" stop-color="${col}"${a === undefined || a >= 1 ? "" : ` stop-opacity="${Math.round(a * 100) / 100}"`}/>`,
    )
    .join("");
}

function linGrad(
  c: Ctx,
  s: readonly Stop[],
  x1: number,
  y1: number,
  x2: number,
  y2: number,
): string {
  const id = gid(c);
  c.defs.push(
    `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="${f(x1)}" y1="${f(y1)}" x2="${f(x2)}" y2="${f(y2)}">${stops(s)}</linearGradient>`,
  );
  return `url(#${id})`;
}

function radGrad(c: Ctx, s: readonly Stop[], cx: number, cy: number, r: number): string {
  const id = gid(c);
  c.defs.push(
    `<radialGradient id="${id}" gradientUnits="userSpaceOnUse" cx="${f(cx)}" cy="${f(cy)}" r="${f(r)}">${stops(s)}</radialGradient>`,
  );
  return `url(#${id})`;
}

/** Horizontal gradient lit on the light side. */
function sideGrad(c: Ctx, lit: string, dark: string, x1: number, x2: number, mid = 0.5): string {
  const [a, b] = c.g.lightSide < 0 ? [lit, dark] : [dark, lit];
  return linGrad(
    c,
    [
      [0, a],
      [mid, mix(lit, dark, 0.4)],
      [1, b],
    ],
    x1,
    0,
    x2,
    0,
  );
}

function clip(c: Ctx, d: string, content: string): string {
  const id = gid(c);
  c.defs.push(`<clipPath id="${id}"><path d="${d}"/></clipPath>`);
  return `<g clip-path="url(#${id})">${content}</g>`;
}

// ---------------------------------------------------------------------------------------------
// Face geometry
// ---------------------------------------------------------------------------------------------

const Y = (g: Face, fy: number): number => g.top + fy * g.len;

/** Depth of the face surface at a horizontal offset (a flattened sphere). */
const depthAt = (g: Face, dx: number): number =>
  Math.sqrt(Math.max(0, g.hw * g.hw - dx * dx)) * 0.8;

/** A point on the turned face: dx from the centre line, fy down from the crown. */
function P(g: Face, dx: number, fy: number, depth = 0): Pt {
  return [g.cx + dx * g.cs + (depthAt(g, dx) + depth) * g.sn, Y(g, fy)];
}

/** A point on the head silhouette: the cranium stays put, the jaw follows the turn. */
function O(g: Face, dx: number, fy: number): Pt {
  const w = smoothstep(0.3, 1, fy) * 0.85;
  const turned = dx * g.cs + depthAt(g, dx) * g.sn;
  return [g.cx + lerp(dx, turned, w), Y(g, fy)];
}

function headOutline(g: Face): Pt[] {
  const h = g.hw;
  const right: [number, number][] = [
    [0.66 * g.brow, 0.05],
    [0.93 * g.brow, 0.2],
    [1.0, 0.4],
    [0.97 * g.cheek, 0.57],
    [g.jaw, 0.76],
    [lerp(g.jaw, g.chin, 0.55), 0.9],
    [g.chin * 0.6, 0.985],
  ];
  const pts: Pt[] = [O(g, 0, 0)];
  for (const [dx, fy] of right) pts.push(O(g, dx * h, fy));
  pts.push(O(g, 0, 1.0));
  for (const [dx, fy] of [...right].reverse()) pts.push(O(g, -dx * h, fy));
  return pts;
}

function makeFace(seed: string): Face {
  const r = makeRng(`face:${seed}`);
  const hw = r.range(146, 166);
  const len = r.range(438, 472);
  const frontal = r.chance(0.25);
  const phi = frontal ? r.range(-0.05, 0.05) : (r.chance(0.5) ? 1 : -1) * r.range(0.14, 0.3);
  const lightSide = r.chance(0.65) ? -Math.sign(phi || 1) : Math.sign(phi || 1);
  const eyeW = hw * r.range(0.35, 0.41);
  return {
    cx: 600 + r.range(-12, 12) - phi * 40,
    top: r.range(232, 262),
    len,
    hw,
    phi,
    sn: Math.sin(phi),
    cs: Math.cos(phi),
    jaw: r.range(0.72, 0.9),
    chin: r.range(0.28, 0.44),
    cheek: r.range(0.95, 1.02),
    brow: r.range(0.95, 1.02),
    eyeSep: hw * r.range(0.35, 0.4),
    eyeW,
    eyeH: eyeW * r.range(0.3, 0.37),
    eyeTilt: r.range(-0.04, 0.06),
    browFy: r.range(0.405, 0.43),
    browW: r.range(6, 11),
    browArch: r.range(0.006, 0.02),
    noseFy: r.range(0.675, 0.71),
    noseW: hw * r.range(0.15, 0.2),
    noseProj: hw * r.range(0.14, 0.22),
    mouthFy: r.range(0.785, 0.805),
    mouthW: hw * r.range(0.26, 0.32),
    lipFull: r.range(0.8, 1.25),
    hairline: r.range(0.17, 0.22),
    volume: r.range(18, 38),
    parting: r.chance(0.5) ? 1 : -1,
    tilt: r.range(-2.5, 2.5),
    lightSide,
    eye: "",
    shoulders: r.range(2.3, 2.65),
    neck: r.range(0.5, 0.58),
  };
}

// ---------------------------------------------------------------------------------------------
// Backdrop
// ---------------------------------------------------------------------------------------------

function drawBackdrop(c: Ctx): void {
  const { bd, g, r } = c;
  const wall = linGrad(
    c,
    [
      [0, bd.top],
      [1, bd.bottom],
    ],
    0,
    0,
    0,
    S,
  );
  c.body.push(`<rect width="${S}" height="${S}" fill="${wall}"/>`);
  const motif = r.pick(["niche", "window", "arcade", "panels"] as const);
  const ax = 600 + r.range(-60, 60) + g.lightSide * r.range(0, 80);
  const aw = r.range(560, 700);
  const at = r.range(90, 170);
  const edge = mix(bd.motif, bd.glow, 0.35);
  if (motif === "niche") {
    c.body.push(path(archD(ax - aw / 2 - 26, at - 26, aw + 52, S), edge, 0.35));
    c.body.push(
      path(
        archD(ax - aw / 2, at, aw, S),
        linGrad(
          c,
          [
            [0, mix(bd.motif, bd.deep, 0.12)],
            [1, mix(bd.bottom, bd.deep, 0.08)],
          ],
          0,
          at,
          0,
          S,
        ),
        0.8,
      ),
    );
  } else if (motif === "window") {
    c.body.push(
      path(archD(ax - aw / 2 - 30, at - 30, aw + 60, S), mix(bd.motif, bd.deep, 0.18), 0.55),
    );
    const glass = linGrad(
      c,
      [
        [0, mix(bd.glow, bd.top, 0.25)],
        [1, mix(bd.glow, bd.motif, 0.6)],
      ],
      0,
      at,
      0,
      S,
    );
    c.body.push(path(archD(ax - aw / 2, at, aw, S), glass, 0.75));
    let bars = `M${f(ax)} ${f(at)}V${S}`;
    for (const k of [-0.5, 0.5]) bars += `M${f(ax + (k * aw) / 2)} ${f(at + aw * 0.07)}V${S}`;
    for (let y = at + aw * 0.5; y < S; y += aw * 0.42)
      bars += `M${f(ax - aw / 2)} ${f(y)}h${f(aw)}`;
    c.body.push(line(bars, mix(bd.motif, bd.deep, 0.25), 9, 0.45));
  } else if (motif === "arcade") {
    const w = aw * 0.62;
    for (const k of [-1.3, 0, 1.3]) {
      const x = ax + k * w * 1.15;
      c.body.push(path(archD(x - w / 2 - 18, at + 60 - 18, w + 36, S), edge, 0.3));
      c.body.push(path(archD(x - w / 2, at + 60, w, S), mix(bd.motif, bd.deep, 0.1), 0.7));
    }
  } else {
    const py = r.range(120, 200);
    let d = "";
    for (const k of [-1.5, -0.5, 0.5, 1.5]) {
      const x = 600 + k * 300;
      d += `M${f(x - 120)} ${f(py)}h240v${f(S - py - 120)}h-240Z`;
    }
    c.body.push(line(d, mix(bd.motif, bd.glow, 0.3), 6, 0.35));
    c.body.push(
      line(
        d.replace(
          /M([\d.]+) ([\d.]+)/g,
          (_m, x: string, y: string) => `M${f(+x + 8)} ${f(+y + 8)}`,
        ),
        mix(bd.motif, bd.deep, 0.2),
        4,
        0.25,
      ),
    );
  }
  // light on the wall, behind the head
  c.body.push(
    `<rect width="${S}" height="${S}" fill="${radGrad(
      c,
      [
        [0, bd.glow, 0.55],
        [0.45, bd.glow, 0.18],
        [1, bd.glow, 0],
      ],
      600 + g.lightSide * 220,
      360,
      760,
    )}"/>`,
  );
  // the sitter's soft shadow on the wall
  c.body.push(
    path(
      ellipseD(g.cx - g.lightSide * 70, 760, 470, 640),
      radGrad(
        c,
        [
          [0, bd.deep, 0.22],
          [0.6, bd.deep, 0.08],
          [1, bd.deep, 0],
        ],
        g.cx - g.lightSide * 70,
        760,
        560,
      ),
    ),
  );
}

// ---------------------------------------------------------------------------------------------
// Body and attire
// ---------------------------------------------------------------------------------------------

interface Frame {
  nb: number; // neck base
  sh: number; // shoulder top
  sw: number; // shoulder half width
  nw: number; // neck half width
  bx: number; // body centre
  nx: number; // neck centre
}

function frame(g: Face): Frame {
  const chinY = Y(g, 1);
  const nb = chinY + 84;
  const b: Frame = {
    nb,
    sh: nb + 52,
    sw: g.hw * g.shoulders,
    nw: g.hw * g.neck,
    bx: g.cx - g.sn * 30 + g.hw * 0.1 * g.sn,
    nx: 0,
  };
  b.nx = lerp(b.bx, g.cx + g.sn * g.hw * 0.3, 0.6);
  return b;
}

/** The garment silhouette: arms and shoulders, with a custom neckline from left to right. */
function garmentD(b: Frame, left: Pt, neckline: string, right: Pt): string {
  const { bx, sw, sh } = b;
  return (
    `M${f(bx - sw - 90)} ${S + 10}` +
    `C${f(bx - sw - 40)} ${f(sh + 220)} ${f(bx - sw - 30)} ${f(sh + 40)} ${f(bx - sw + 50)} ${f(sh + 4)}` +
    `C${f(bx - sw * 0.55)} ${f(sh - 22)} ${f(left[0] - 60)} ${f(left[1] + 10)} ${pt(left)}` +
    neckline +
    `L${pt(right)}C${f(right[0] + 60)} ${f(right[1] + 10)} ${f(bx + sw * 0.55)} ${f(sh - 22)} ${f(bx + sw - 50)} ${f(sh + 4)}` +
    `C${f(bx + sw + 30)} ${f(sh + 40)} ${f(bx + sw + 40)} ${f(sh + 220)} ${f(bx + sw + 90)} ${S + 10}Z`
  );
}

function cloth(c: Ctx, base: string, b: Frame): string {
  return sideGrad(
    c,
    mix(base, "#fff8ea", 0.14),
    mix(base, "#10100c", 0.32),
    b.bx - b.sw,
    b.bx + b.sw,
  );
}

function folds(c: Ctx, b: Frame, col: string): void {
  const { bx, sw, sh } = b;
  let d = "";
  for (const side of [-1, 1]) {
    d += `M${f(bx + side * (sw - 40))} ${f(sh + 60)}Q${f(bx + side * (sw - 70))} ${f(sh + 200)} ${f(bx + side * (sw - 60))} ${S}`;
    d += `M${f(bx + side * sw * 0.5)} ${f(sh + 140)}q${f(side * -20)} 90 ${f(side * -6)} 200`;
  }
  c.body.push(line(d, col, 5, 0.22));
}

function drawNeck(c: Ctx, b: Frame): void {
  const { g } = c;
  const { bx, nw, nb } = b;
  const nx = b.nx;
  const top = Y(g, 0.7);
  const d =
    `M${f(nx - nw)} ${f(top)}` +
    `C${f(nx - nw)} ${f(nb - 60)} ${f(nx - nw - 10)} ${f(nb - 10)} ${f(bx - nw - 70)} ${f(nb + 40)}` +
    `L${f(bx - nw - 110)} ${f(nb + 260)}L${f(bx + nw + 110)} ${f(nb + 260)}L${f(bx + nw + 70)} ${f(nb + 40)}` +
    `C${f(nx + nw + 10)} ${f(nb - 10)} ${f(nx + nw)} ${f(nb - 60)} ${f(nx + nw)} ${f(top)}Z`;
  c.body.push(
    path(
      d,
      sideGrad(c, mix(c.skin, c.skinLo, 0.25), mix(c.skinLo, "#2a1410", 0.15), nx - nw, nx + nw),
    ),
  );
  // shadow under the jaw
  const jaw = headOutline(g)
    .slice(5, 12)
    .map(([x, y]): Pt => [x, y + g.len * 0.09]);
  c.body.push(clip(c, d, path(smoothD([...jaw, [nx + nw, top], [nx - nw, top]]), c.skinLo, 0.55)));
  // collarbone hint
  c.body.push(
    line(
      `M${f(bx - nw - 60)} ${f(nb + 70)}q55 -14 ${f(nw + 40)} 6M${f(bx + nw + 60)} ${f(nb + 70)}q-55 -14 ${f(-nw - 40)} 6`,
      c.skinLo,
      4,
      0.35,
    ),
  );
}

function drawAttire(c: Ctx, b: Frame): void {
  const { bx, nw, nb } = b;
  const attire = c.spec.attire;
  const ar = makeRng(`attire:${c.spec.seed}:${attire}`);

  const shirtOpen = (col: string, depth: number, collar = true, under = 0): void => {
    const base = cloth(c, col, b);
    const d = under
      ? polyD([
          [bx - nw - 8, nb - 46],
          [bx, nb + depth],
          [bx + nw + 8, nb - 46],
          [bx + nw + 60, nb - 30],
          [bx + 30, under],
          [bx - 30, under],
          [bx - nw - 60, nb - 30],
        ])
      : garmentD(b, [bx - nw - 8, nb - 46], `L${f(bx)} ${f(nb + depth)}`, [bx + nw + 8, nb - 46]);
    c.body.push(path(d, base));
    if (!collar) return;
    const shade = mix(col, "#1a1612", 0.28);
    for (const s of [-1, 1]) {
      const wing: Pt[] = [
        [b.nx + s * (nw + 6), nb - 64],
        [bx + s * (nw + 34), nb + 26],
        [bx + s * 44, nb + depth + 30],
        [bx + s * 6, nb + depth - 4],
        [b.nx + s * (nw - 8), nb - 44],
      ];
      c.body.push(path(polyD(wing), mix(col, s === c.g.lightSide ? "#ffffff" : "#8a8276", 0.12)));
      c.body.push(line(polyD(wing), shade, 2.5, 0.5));
    }
  };

  if (attire === "suit" || attire === "blazer") {
    const suit = attire === "suit";
    const jacket = suit
      ? ar.pick(["#24272c", "#1f2a3d", "#263a2e", "#3a3634", "#2c2c34"])
      : ar.pick(["#6b5a43", "#2f4a37", "#2a3550", "#5a2a30", "#7d6e58", "#4a4a48"]);
    const shirt = suit
      ? ar.pick(["#f4f2ec", "#f1efe9", "#dfe7ee"])
      : ar.pick(["#f4f2ec", "#d6e1ea", "#ece4d4", "#e4e9e1"]);
    const vy = nb + (suit ? 250 : 290);
    if (suit) {
      shirtOpen(shirt, 10, true, vy + 40);
      const tie = ar.pick([BURGUNDY, "#8a6a34", "#23324a", "#2f4a37", "#5d2540"]);
      const knot: Pt[] = [
        [bx - 22, nb - 4],
        [bx + 22, nb - 4],
        [bx + 14, nb + 40],
        [bx - 14, nb + 40],
      ];
      const blade: Pt[] = [
        [bx - 14, nb + 38],
        [bx + 14, nb + 38],
        [bx + 34, S + 10],
        [bx - 34, S + 10],
      ];
      const tg = sideGrad(c, mix(tie, "#ffffff", 0.12), mix(tie, "#000000", 0.3), bx - 34, bx + 34);
      c.body.push(path(polyD(blade), tg), path(polyD(knot), mix(tie, "#000000", 0.12)));
      c.body.push(
        line(
          `M${f(bx - 22)} ${f(nb + 140)}l44 -10M${f(bx - 26)} ${f(nb + 200)}l52 -12`,
          mix(tie, "#ffffff", 0.3),
          3,
          0.25,
        ),
      );
    } else {
      shirtOpen(shirt, 74, true, vy + 40);
    }
    const jd = garmentD(b, [bx - nw - 26, nb - 36], `L${f(bx)} ${f(vy)}`, [bx + nw + 26, nb - 36]);
    c.body.push(path(jd, cloth(c, jacket, b)));
    folds(c, b, mix(jacket, "#000000", 0.4));
    // lapels
    const lap = mix(jacket, c.g.lightSide < 0 ? "#ffffff" : "#000000", 0.06);
    const edge = mix(jacket, "#000000", 0.45);
    for (const s of [-1, 1]) {
      const l: Pt[] = [
        [bx + s * (nw + 26), nb - 36],
        [bx + s * (nw + 48), nb + 64],
        [bx + s * (nw + 34), nb + 74],
        [bx + s * (nw + 96), nb + 104],
        [bx + s * 40, vy + 10],
        [bx + s * 4, vy],
      ];
      c.body.push(
        path(polyD(l), s === c.g.lightSide ? mix(lap, "#ffffff", 0.05) : mix(lap, "#000000", 0.08)),
      );
      c.body.push(line(polyD(l), edge, 3, 0.55));
    }
    // buttons and pocket square
    c.body.push(path(ellipseD(bx + 8, vy + 60, 7, 7), mix(jacket, "#000000", 0.5)));
    if (ar.chance(suit ? 0.55 : 0.35)) {
      const px = bx + 205;
      const py = nb + 200;
      const sq = ar.pick([IVORY, GOLD, BURGUNDY, "#c9b48a"]);
      c.body.push(
        path(
          polyD([
            [px - 38, py],
            [px - 32, py - 16],
            [px + 30, py - 22],
            [px + 38, py - 6],
          ]),
          sq,
          0.9,
        ),
      );
      c.body.push(
        line(
          `M${f(px - 44)} ${f(py + 1)}L${f(px + 44)} ${f(py - 7)}`,
          mix(jacket, "#000000", 0.45),
          4,
          0.6,
        ),
      );
    }
  } else if (attire === "shirt") {
    const col = ar.pick(["#f4f3ef", "#cfdbe6", "#e9e1d0", "#dde3d8", "#3f4f63", "#e8d6d2"]);
    shirtOpen(col, 64);
    const dark = mix(col, "#1a1612", 0.3);
    let d = `M${f(bx + 4)} ${f(nb + 90)}V${S}`;
    c.body.push(line(d, dark, 3, 0.5));
    d = "";
    for (let y = nb + 130; y < S; y += 110) d += ellipseD(bx + 16, y, 5, 5);
    c.body.push(path(d, mix(col, "#ffffff", 0.4)));
    c.body.push(
      line(
        `M${f(bx - b.sw + 70)} ${f(b.sh + 6)}q-20 120 -26 260M${f(bx + b.sw - 70)} ${f(b.sh + 6)}q20 120 26 260`,
        dark,
        3,
        0.35,
      ),
    );
    folds(c, b, dark);
    if (ar.chance(0.5))
      c.body.push(line(`M${f(bx - 210)} ${f(nb + 170)}h100v110q-50 16 -100 0Z`, dark, 3, 0.3));
  } else if (attire === "turtleneck") {
    const col = ar.pick(["#1f1f22", "#e8e0cf", "#6a2230", "#39463c", "#8a765a", "#2a3446"]);
    const base = cloth(c, col, b);
    c.body.push(
      path(
        garmentD(
          b,
          [bx - nw - 20, nb - 50],
          `Q${f(bx)} ${f(nb - 20)} ${f(bx + nw + 20)} ${f(nb - 50)}`,
          [bx + nw + 20, nb - 50],
        ),
        base,
      ),
    );
    folds(c, b, mix(col, "#000000", 0.4));
    const nx = b.nx;
    const top = Y(c.g, 1) - 4;
    const cd =
      `M${f(nx - nw - 14)} ${f(top + 10)}Q${f(nx)} ${f(top - 16)} ${f(nx + nw + 14)} ${f(top + 10)}` +
      `L${f(bx + nw + 24)} ${f(nb - 6)}Q${f(bx)} ${f(nb + 34)} ${f(bx - nw - 24)} ${f(nb - 6)}Z`;
    c.body.push(path(cd, base));
    // the rolled rim and the opening around the neck
    c.body.push(
      line(
        `M${f(nx - nw - 12)} ${f(top + 12)}Q${f(nx)} ${f(top - 12)} ${f(nx + nw + 12)} ${f(top + 12)}`,
        mix(col, "#000000", 0.45),
        5,
        0.45,
      ),
      line(
        `M${f(nx - nw - 16)} ${f(top + 34)}Q${f(nx)} ${f(top + 12)} ${f(nx + nw + 16)} ${f(top + 34)}`,
        mix(col, "#ffffff", 0.25),
        4,
        0.3,
      ),
    );
    let rib = "";
    for (let i = 2; i < 3; i++) {
      const t = i / 3;
      const y0 = lerp(top + 10, nb - 6, t);
      const x0 = lerp(nx - nw - 14, bx - nw - 24, t);
      const x1 = lerp(nx + nw + 14, bx + nw + 24, t);
      rib += `M${f(x0 + 6)} ${f(y0)}Q${f(lerp(nx, bx, t))} ${f(y0 + lerp(-4, 38, t))} ${f(x1 - 6)} ${f(y0)}`;
    }
    c.body.push(line(rib, mix(col, "#000000", 0.4), 4, 0.2));
  } else {
    // blouse
    const col = ar.pick([IVORY, "#dcbcb3", "#aebaa4", "#2a3550", "#6f2330", "#c9aa72"]);
    const depth = ar.range(100, 150);
    const base = cloth(c, col, b);
    const ld: Pt = [bx - nw - 36, nb - 40];
    const rd: Pt = [bx + nw + 36, nb - 40];
    c.body.push(
      path(
        garmentD(
          b,
          ld,
          `Q${f(bx - 30)} ${f(nb + depth - 30)} ${f(bx)} ${f(nb + depth)}Q${f(bx + 30)} ${f(nb + depth - 30)} ${pt(rd)}`,
          rd,
        ),
        base,
      ),
    );
    const dark = mix(col, "#000000", 0.35);
    // wrap edge and soft drape
    c.body.push(
      line(
        `M${pt(ld)}Q${f(bx - 30)} ${f(nb + depth - 30)} ${f(bx)} ${f(nb + depth)}L${f(bx + 160)} ${S}`,
        mix(col, "#ffffff", 0.3),
        5,
        0.5,
      ),
    );
    c.body.push(
      line(
        `M${f(bx)} ${f(nb + depth)}q40 60 60 200M${f(bx - 120)} ${f(nb + 60)}q10 120 -10 260`,
        dark,
        4,
        0.25,
      ),
    );
    folds(c, b, dark);
    if (ar.chance(0.6)) {
      const chain = ar.pick([GOLD, "#d8c9a6", "#e9e4da"]);
      const cy = nb + Math.min(depth - 30, 80);
      c.body.push(
        line(
          `M${f(bx - nw - 10)} ${f(nb - 30)}Q${f(bx)} ${f(cy + 30)} ${f(bx + nw + 10)} ${f(nb - 30)}`,
          chain,
          3,
          0.9,
        ),
      );
      c.body.push(path(ellipseD(bx, cy + 18, 7, 9), chain));
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Hair
// ---------------------------------------------------------------------------------------------

/** The cap of hair over the cranium, down to the ears, with the hairline along the forehead. */
function capPts(g: Face, vol: number, hairline: number, sideDrop = 0.42, sideOut = 1.05): Pt[] {
  const h = g.hw;
  const pa = g.parting * h * 0.28;
  const cxs = g.cx + g.sn * h * 0.25;
  return [
    [g.cx - h * sideOut * 0.97, Y(g, sideDrop), 1],
    [g.cx - h * sideOut * 1.01, Y(g, 0.28)],
    [g.cx - h * sideOut * 0.98, Y(g, 0.12) - vol * 0.2],
    [g.cx - h * 0.74, Y(g, -0.01) - vol * 0.7],
    [g.cx - h * 0.25, Y(g, -0.04) - vol],
    [g.cx + h * 0.28, Y(g, -0.038) - vol * 0.96],
    [g.cx + h * 0.76, Y(g, -0.005) - vol * 0.65],
    [g.cx + h * sideOut * 0.99, Y(g, 0.13) - vol * 0.2],
    [g.cx + h * sideOut * 1.01, Y(g, 0.29)],
    [g.cx + h * sideOut * 0.97, Y(g, sideDrop), 1],
    [g.cx + h * 0.9, Y(g, sideDrop - 0.03), 1],
    [g.cx + h * 0.88, Y(g, 0.3)],
    [cxs + h * 0.7, Y(g, hairline + 0.05)],
    [cxs + h * 0.4, Y(g, hairline + 0.005)],
    [cxs + pa, Y(g, hairline - 0.015)],
    [cxs - h * 0.4, Y(g, hairline + 0.01)],
    [cxs - h * 0.7, Y(g, hairline + 0.055)],
    [g.cx - h * 0.88, Y(g, 0.3)],
    [g.cx - h * 0.9, Y(g, sideDrop - 0.03), 1],
  ];
}

/** Hair that frames the face: over the crown, down past the ears, with a parting or a sweep. */
function framePts(g: Face, vol: number, bottom: number, out: number, sweep: number, r: Rng): Pt[] {
  const h = g.hw;
  const pa = g.parting;
  const cxs = g.cx + g.sn * h * 0.25;
  const ph = r.range(0, 6);
  const wave = (fy: number): number => (sweep ? Math.sin(fy * 16 + ph) * 0.06 : 0);
  const side = (s: number): Pt[] =>
    [0.3, 0.5, 0.7, 0.85].map((fy): Pt => [
      g.cx + s * h * (out + wave(fy + (s > 0 ? 0.1 : 0))),
      Y(g, lerp(0.3, bottom - 0.08, (fy - 0.3) / 0.55)),
    ]);
  return [
    ...side(-1).reverse(),
    [g.cx - h * 1.04, Y(g, 0.12)],
    [g.cx - h * 0.8, Y(g, 0.0) - vol * 0.55],
    [g.cx - h * 0.3, Y(g, -0.045) - vol],
    [g.cx + h * 0.3, Y(g, -0.043) - vol * 0.97],
    [g.cx + h * 0.82, Y(g, 0.01) - vol * 0.5],
    [g.cx + h * 1.04, Y(g, 0.14)],
    ...side(1),
    [g.cx + h * (out + 0.06), Y(g, bottom)],
    [g.cx + h * 0.94, Y(g, bottom - 0.04), 1],
    [g.cx + h * 0.92, Y(g, 0.66)],
    [g.cx + h * 0.86, Y(g, 0.36)],
    [cxs + h * 0.62, Y(g, g.hairline + 0.06 + (pa < 0 ? sweep * 1.2 : 0))],
    [cxs + h * (0.3 - pa * sweep), Y(g, g.hairline + 0.01 + (pa < 0 ? sweep * 0.6 : 0))],
    [cxs + pa * h * 0.3, Y(g, g.hairline - 0.025), sweep ? 0 : 1],
    [cxs - h * (0.3 + pa * sweep), Y(g, g.hairline + 0.01 + (pa > 0 ? sweep * 0.6 : 0))],
    [cxs - h * 0.62, Y(g, g.hairline + 0.06 + (pa > 0 ? sweep * 1.2 : 0))],
    [g.cx - h * 0.86, Y(g, 0.36)],
    [g.cx - h * 0.92, Y(g, 0.66)],
    [g.cx - h * 0.94, Y(g, bottom - 0.04), 1],
    [g.cx - h * (out + 0.06), Y(g, bottom)],
  ];
}

function bumpy(
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  a0: number,
  a1: number,
  n: number,
  amp: number,
  r: Rng,
): Pt[] {
  const out: Pt[] = [];
  for (let i = 0; i <= n; i++) {
    const a = lerp(a0, a1, i / n);
    const k = 1 + (i % 2 === 0 ? amp : -amp * 0.4) * r.range(0.6, 1.2);
    out.push([cx + Math.cos(a) * rx * k, cy + Math.sin(a) * ry * k]);
  }
  return out;
}

interface HairShapes {
  back: string;
  front: string;
}

function hairShapes(c: Ctx): HairShapes {
  const { g } = c;
  const h = g.hw;
  const hr = makeRng(`hair:${c.spec.seed}:${c.spec.hair}`);
  const vol = g.volume;
  switch (c.spec.hair) {
    default:
    case "short":
      return { back: "", front: smoothD(capPts(g, vol * 0.75, g.hairline, 0.42, 0.99)) };
    case "bald": {
      // what remains: a thin band above and behind the ears
      let d = "";
      for (const s of [-1, 1]) {
        const outer = [0.3, 0.37, 0.43, 0.47].map((fy): Pt => {
          const [x, y] = O(g, s * h, fy);
          return [x - s * 2, y];
        });
        const inner = [0.44, 0.38, 0.33].map((fy): Pt => {
          const [x, y] = O(g, s * h * (0.86 + (0.44 - fy) * 0.5), fy);
          return [x, y];
        });
        d += smoothD([...outer, ...inner]);
      }
      return { back: "", front: d };
    }
    case "bun": {
      const bx = g.cx - g.sn * h * 0.3;
      const br = h * hr.range(0.3, 0.38);
      const back = ellipseD(bx, Y(g, -0.04) - br * 0.4, br, br * 0.9);
      return { back, front: smoothD(capPts(g, vol * 0.3, g.hairline - 0.01, 0.4, 1.02)) };
    }
    case "long": {
      const drop = hr.range(1.32, 1.55);
      const wide = hr.range(1.2, 1.34);
      const back = smoothD([
        [g.cx - h * 0.9, Y(g, 0.2)],
        [g.cx, Y(g, 0.12)],
        [g.cx + h * 0.9, Y(g, 0.2)],
        [g.cx + h * wide, Y(g, 0.55)],
        [g.cx + h * (wide + 0.12), Y(g, drop), 1],
        [g.cx - h * (wide + 0.12), Y(g, drop), 1],
        [g.cx - h * wide, Y(g, 0.55)],
      ]);
      return { back, front: smoothD(framePts(g, vol, drop - 0.08, 1.14, 0, hr)) };
    }
    case "wavy": {
      const drop = hr.range(0.9, 1.06);
      const back = smoothD([
        [g.cx - h * 0.9, Y(g, 0.25)],
        [g.cx, Y(g, 0.15)],
        [g.cx + h * 0.9, Y(g, 0.25)],
        [g.cx + h * 1.2, Y(g, 0.45)],
        [g.cx + h * 1.2, Y(g, 0.72)],
        [g.cx + h * 1.32, Y(g, drop + 0.06)],
        [g.cx + h * 0.9, Y(g, drop + 0.1)],
        [g.cx - h * 0.9, Y(g, drop + 0.1)],
        [g.cx - h * 1.32, Y(g, drop + 0.06)],
        [g.cx - h * 1.2, Y(g, 0.72)],
        [g.cx - h * 1.2, Y(g, 0.45)],
      ]);
      return { back, front: smoothD(framePts(g, vol * 1.1, drop, 1.18, 0.09, hr)) };
    }
    case "curly": {
      const cy = Y(g, 0.34);
      const rx = h * hr.range(1.32, 1.5);
      const ry = g.len * hr.range(0.5, 0.58) + vol;
      const arc = bumpy(g.cx, cy, rx, ry, Math.PI * 0.92, Math.PI * 2.08, 16, 0.06, hr);
      const back = smoothD([
        ...arc,
        [g.cx + rx * 0.9, Y(g, 0.72)],
        [g.cx + h * 0.8, Y(g, 0.78)],
        [g.cx - h * 0.8, Y(g, 0.78)],
        [g.cx - rx * 0.9, Y(g, 0.72)],
      ]);
      const cap = capPts(g, vol + 20, g.hairline, 0.46, 1.12);
      const cxs = g.cx + g.sn * h * 0.25;
      const hl: Pt[] = [];
      for (let i = 0; i <= 8; i++) {
        const t = i / 8;
        const x = cxs + lerp(h * 0.88, -h * 0.88, t);
        const y =
          Y(g, g.hairline + 0.02 + 0.1 * Math.pow(Math.abs(t - 0.5) * 2, 2)) + (i % 2 ? 10 : -4);
        hl.push([x, y]);
      }
      return { back, front: smoothD([...cap.slice(0, 8), ...hl]) };
    }
  }
}

function hairTexture(c: Ctx, shape: string, col: string): void {
  const { g } = c;
  const hr = makeRng(`strands:${c.spec.seed}`);
  const h = g.hw;
  let lit = "";
  let dark = "";
  const curly = c.spec.hair === "curly";
  const flowing = c.spec.hair === "long" || c.spec.hair === "wavy";
  const n = curly ? 34 : flowing ? 18 : 14;
  for (let i = 0; i < n; i++) {
    if (curly) {
      const x = g.cx + hr.range(-1.45, 1.45) * h;
      const y = Y(g, hr.range(-0.12, 0.7));
      const rr = hr.range(9, 16);
      const a0 = hr.range(0, Math.PI * 2);
      const a1 = a0 + hr.range(2.6, 3.6);
      const seg = `M${f(x + Math.cos(a0) * rr)} ${f(y + Math.sin(a0) * rr)}A${f(rr)} ${f(rr)} 0 0 1 ${f(x + Math.cos(a1) * rr)} ${f(y + Math.sin(a1) * rr)}`;
      if (i % 2) lit += seg;
      else dark += seg;
    } else if (flowing) {
      // strands from the parting, over the crown and down the sides
      const side = i % 2 ? 1 : -1;
      const t = hr.range(0.1, 1);
      const x0 = g.cx + g.sn * h * 0.25 + g.parting * h * 0.3 + side * hr.range(0, 0.12) * h;
      const y0 = Y(g, g.hairline + hr.range(-0.02, 0.03));
      const x1 = g.cx + side * h * lerp(0.9, 1.3, t);
      const y1 = Y(g, lerp(0.3, c.spec.hair === "long" ? 1.35 : 0.95, t));
      const seg = `M${f(x0)} ${f(y0)}C${f(lerp(x0, x1, 0.7))} ${f(y0 - 30)} ${f(x1 - side * 20)} ${f(lerp(y0, y1, 0.3))} ${f(x1)} ${f(y1)}`;
      if (hr.chance(0.5)) lit += seg;
      else dark += seg;
    } else {
      // combed back: short strokes from the hairline up and away from the parting
      const t = hr.range(-0.85, 0.85);
      const cxs = g.cx + g.sn * h * 0.25;
      const x0 = cxs + t * h;
      const y0 = Y(g, g.hairline + 0.02 + 0.1 * t * t) + hr.range(0, 10);
      const dir = t > g.parting * 0.3 ? 1 : -1;
      const x1 = x0 + dir * h * hr.range(0.15, 0.4);
      const y1 = Y(g, hr.range(-0.02, 0.08) + Math.abs(t) * 0.1) - g.volume * 0.6;
      const seg = `M${f(x0)} ${f(y0)}Q${f(x0 + dir * 6)} ${f(lerp(y0, y1, 0.6))} ${f(x1)} ${f(y1)}`;
      if (i % 2) lit += seg;
      else dark += seg;
    }
  }
  c.body.push(
    clip(
      c,
      shape,
      line(lit, mix(col, "#fff1d8", 0.3), curly ? 5 : 3.5, flowing || curly ? 0.35 : 0.25) +
        line(dark, mix(col, "#000000", 0.35), curly ? 5 : 3.5, flowing || curly ? 0.35 : 0.25),
    ),
  );
}

function hairFill(c: Ctx, col: string, y0: number, y1: number): string {
  const g = c.g;
  const hi = mix(col, "#fff3dc", 0.22);
  const lo = mix(col, "#0c0806", 0.35);
  return radGrad(
    c,
    [
      [0, hi],
      [0.55, col],
      [1, lo],
    ],
    g.cx + g.lightSide * g.hw * 0.6,
    y0 + (y1 - y0) * 0.15,
    Math.max(260, (y1 - y0) * 1.1),
  );
}

// ---------------------------------------------------------------------------------------------
// Face
// ---------------------------------------------------------------------------------------------

function drawEars(c: Ctx): void {
  const { g } = c;
  const h = g.hw;
  for (const s of [-1, 1]) {
    // the ear on the side turned towards the viewer shows more
    const vis = clamp(1 - s * g.sn * 2.4, 0.15, 1.5);
    const [ex] = O(g, s * h * 0.96, 0.5);
    const w = h * 0.16 * vis;
    const d = smoothD([
      [ex - s * 10, Y(g, 0.41)],
      [ex + s * w * 0.9, Y(g, 0.415)],
      [ex + s * w * 1.1, Y(g, 0.5)],
      [ex + s * w * 0.7, Y(g, 0.62)],
      [ex + s * w * 0.1, Y(g, 0.665)],
      [ex - s * 12, Y(g, 0.62)],
    ]);
    c.body.push(path(d, s === g.lightSide ? c.skin : mix(c.skin, c.skinLo, 0.6)));
    c.body.push(
      line(
        `M${f(ex + s * w * 0.65)} ${f(Y(g, 0.45))}q${f(s * w * 0.25)} ${f(g.len * 0.06)} ${f(-s * w * 0.2)} ${f(g.len * 0.13)}`,
        c.skinLo,
        5,
        0.55,
      ),
    );
  }
}

function drawHead(c: Ctx): string {
  const { g } = c;
  const d = smoothD(headOutline(g));
  c.body.push(path(d, sideGrad(c, c.skinHi, c.skinLo, g.cx - g.hw, g.cx + g.hw, 0.55)));
  // soft shading: temple and cheek on the shadow side, warmth on the cheeks
  const sx = g.cx - g.lightSide * g.hw * 0.9;
  c.body.push(
    path(
      d,
      radGrad(
        c,
        [
          [0, c.skinLo, 0.55],
          [1, c.skinLo, 0],
        ],
        sx,
        Y(g, 0.55),
        g.hw * 0.9,
      ),
    ),
  );
  const blush = mix(c.skin, "#c0504a", 0.5);
  for (const s of [-1, 1]) {
    const [bx, by] = P(g, s * g.hw * 0.52, 0.66);
    c.body.push(
      path(
        ellipseD(bx, by, 75, 50),
        radGrad(
          c,
          [
            [0, blush, 0.13],
            [1, blush, 0],
          ],
          bx,
          by,
          76,
        ),
      ),
    );
  }
  return d;
}

function drawEyes(c: Ctx): void {
  const { g } = c;
  const fy = 0.5;
  const lidCol = mix(c.skinLo, "#1a0f0c", 0.55);
  const gaze = -g.sn * g.eyeW * 0.12;
  for (const s of [-1, 1]) {
    const dx = s * g.eyeSep;
    const hw = g.eyeW / 2;
    const inner = P(g, dx - s * hw, fy);
    const outer = P(g, dx + s * hw, fy - g.eyeTilt * 0.1);
    const mid = P(g, dx + s * hw * 0.1, fy);
    const eh = g.eyeH;
    const top: Pt = [mid[0], mid[1] - eh * 1.05];
    const bot: Pt = [mid[0] + s * 4, mid[1] + eh * 0.75];
    const almond = `M${pt(inner)}Q${pt(top)} ${pt(outer)}Q${pt(bot)} ${pt(inner)}Z`;
    // socket shadow
    const [sx, sy] = P(g, dx, fy - 0.02);
    c.body.push(
      path(
        ellipseD(sx, sy, hw * 1.5, eh * 1.6),
        radGrad(
          c,
          [
            [0, c.skinLo, 0.4],
            [1, c.skinLo, 0],
          ],
          sx,
          sy,
          hw * 1.6,
        ),
      ),
    );
    c.body.push(path(almond, mix("#f1ebe2", c.skin, 0.35)));
    const ix = mid[0] + gaze;
    const iy = mid[1] - eh * 0.05;
    const ir = eh * 0.62;
    c.body.push(
      clip(
        c,
        almond,
        path(ellipseD(ix, iy, ir, ir), g.eye) +
          path(ellipseD(ix, iy, ir * 0.45, ir * 0.45), "#151010") +
          path(ellipseD(ix, iy - ir - eh * 0.2, hw * 1.4, eh * 0.5), c.skinLo, 0.35) +
          path(ellipseD(ix + ir * 0.3 * -g.lightSide, iy - ir * 0.35, 2.6, 2.6), "#ffffff", 0.7),
      ),
    );
    // upper lid line and crease
    const lid = `M${pt(inner)}Q${pt(top)} ${pt(outer)}`;
    c.body.push(line(lid, lidCol, 4.5, 0.9));
    const crease = `M${f(inner[0] + s * 4)} ${f(inner[1] - eh * 0.55)}Q${f(top[0])} ${f(top[1] - eh * 0.9)} ${f(outer[0] - s * 2)} ${f(outer[1] - eh * 0.6)}`;
    c.body.push(line(crease, c.skinLo, 3, 0.55));
    c.body.push(
      line(
        `M${f(inner[0] + s * 6)} ${f(inner[1] + 3)}Q${pt(bot)} ${f(outer[0] - s * 4)} ${f(outer[1] + 1)}`,
        c.skinLo,
        2.5,
        0.4,
      ),
    );
  }
}

function drawBrows(c: Ctx, col: string): void {
  const { g } = c;
  const fy = g.browFy;
  let d = "";
  for (const s of [-1, 1]) {
    const dx = s * g.eyeSep;
    const w = g.eyeW * 0.62;
    const a = P(g, dx - s * w * 0.95, fy + 0.012);
    const pk = P(g, dx + s * w * 0.25, fy - g.browArch);
    const b = P(g, dx + s * w * 1.05, fy + 0.01);
    const t = g.browW;
    d += `M${f(a[0])} ${f(a[1] - t * 0.55)}Q${f(pk[0])} ${f(pk[1] - t * 0.9)} ${f(b[0])} ${f(b[1])}Q${f(pk[0])} ${f(pk[1] + t * 0.5)} ${f(a[0])} ${f(a[1] + t * 0.5)}Z`;
  }
  c.body.push(path(d, col, 0.9));
}

function drawNose(c: Ctx): void {
  const { g } = c;
  const lo = c.skinLo;
  const fy = g.noseFy;
  const shadowSide = -g.lightSide;
  const tip = P(g, 0, fy - 0.015, g.noseProj);
  // bridge shadow
  const b0 = P(g, shadowSide * g.eyeSep * 0.32, 0.47, g.noseProj * 0.3);
  const b1 = P(g, shadowSide * g.noseW * 0.75, fy - 0.06, g.noseProj * 0.5);
  c.body.push(
    line(
      `M${pt(b0)}Q${f(b0[0] + shadowSide * 4)} ${f(lerp(b0[1], b1[1], 0.6))} ${pt(b1)}`,
      lo,
      10,
      0.3,
    ),
  );
  // underside
  const l = P(g, -g.noseW, fy, g.noseProj * 0.25);
  const r = P(g, g.noseW, fy, g.noseProj * 0.25);
  const base = `M${pt(l)}Q${f(tip[0])} ${f(tip[1] + g.len * 0.05)} ${pt(r)}Q${f(tip[0])} ${f(tip[1] + g.len * 0.02)} ${pt(l)}Z`;
  c.body.push(path(base, lo, 0.3));
  // alar wings
  for (const s of [-1, 1]) {
    const w = P(g, s * g.noseW, fy, g.noseProj * 0.25);
    c.body.push(
      line(
        `M${f(w[0] - s * 3)} ${f(w[1] - g.len * 0.04)}q${f(s * 12)} ${f(g.len * 0.02)} ${f(s * 4)} ${f(g.len * 0.045)}`,
        lo,
        4,
        s === shadowSide ? 0.7 : 0.4,
      ),
    );
    const nx = lerp(tip[0], w[0], 0.55);
    c.body.push(path(ellipseD(nx, w[1] + 2, g.noseW * 0.24, 4), mix(lo, "#1a0c08", 0.3), 0.4));
  }
  // tip highlight
  c.body.push(path(ellipseD(tip[0] + g.lightSide * 6, tip[1] - 8, 12, 8), c.skinHi, 0.22));
}

function drawMouth(c: Ctx): void {
  const { g } = c;
  const fy = g.mouthFy;
  const lf = g.lipFull;
  const l = P(g, -g.mouthW, fy + 0.004);
  const r = P(g, g.mouthW, fy + 0.004);
  const mc = P(g, 0, fy, g.noseProj * 0.15);
  const lipBase = c.spec.attire === "blouse" ? "#b24f55" : "#a4504c";
  const upper = mix(c.skin, mix(lipBase, "#3a1a16", c.spec.skinTone / 8), 0.38);
  const lower = mix(c.skin, lipBase, 0.26);
  const up = g.len * 0.022 * lf;
  const dn = g.len * 0.034 * lf;
  const pl = P(g, -g.mouthW * 0.3, fy - 0.02 * lf, g.noseProj * 0.1);
  const pr = P(g, g.mouthW * 0.3, fy - 0.02 * lf, g.noseProj * 0.1);
  const upperD = `M${pt(l)}Q${f(pl[0] - g.mouthW * 0.25)} ${f(pl[1] + 2)} ${pt(pl)}Q${f(mc[0])} ${f(mc[1] - up * 0.55)} ${pt(pr)}Q${f(pr[0] + g.mouthW * 0.25)} ${f(pr[1] + 2)} ${pt(r)}Q${f(mc[0])} ${f(mc[1] + 3)} ${pt(l)}Z`;
  const lowerD = `M${pt(l)}Q${f(mc[0])} ${f(mc[1] + 3)} ${pt(r)}Q${f(mc[0] + g.mouthW * 0.2)} ${f(mc[1] + dn * 1.5)} ${f(mc[0])} ${f(mc[1] + dn)}Q${f(mc[0] - g.mouthW * 0.7)} ${f(mc[1] + dn * 0.9)} ${pt(l)}Z`;
  c.body.push(path(lowerD, lower), path(upperD, upper));
  c.body.push(
    line(
      `M${f(l[0] - 3)} ${f(l[1] - 2)}Q${f(mc[0])} ${f(mc[1] + 4)} ${f(r[0] + 3)} ${f(r[1] - 2)}`,
      mix(upper, "#1a0c0a", 0.5),
      3,
      0.8,
    ),
  );
  // lower lip highlight and the shadow beneath
  c.body.push(
    path(
      ellipseD(mc[0] + g.lightSide * 10, mc[1] + dn * 0.55, g.mouthW * 0.3, dn * 0.2),
      "#ffffff",
      0.12,
    ),
  );
  if (c.spec.hasBeard) return;
  const sh = P(g, 0, fy + 0.075, g.noseProj * 0.1);
  c.body.push(path(ellipseD(sh[0], sh[1], g.mouthW * 0.45, g.len * 0.016), c.skinLo, 0.16));
}

function drawBeard(c: Ctx, col: string): void {
  const { g } = c;
  const h = g.hw;
  const br = makeRng(`beard:${c.spec.seed}`);
  const full = br.chance(0.6);
  const out = headOutline(g);
  const jawPts = out
    .slice(4, 13)
    .map(([x, y]): Pt => [x + (x - g.cx) * 0.02, y + (y > Y(g, 0.9) ? 8 : 0)]);
  const mTop = g.noseFy + 0.04;
  const inner: Pt[] = [
    P(g, h * 0.72, full ? 0.58 : 0.7),
    P(g, h * 0.5, full ? 0.72 : 0.8),
    P(g, g.mouthW * 1.1, mTop + 0.02),
    P(g, 0, mTop - 0.003, g.noseProj * 0.2),
    P(g, -g.mouthW * 1.1, mTop + 0.02),
    P(g, -h * 0.5, full ? 0.72 : 0.8),
    P(g, -h * 0.72, full ? 0.58 : 0.7),
  ];
  const d = smoothD([...jawPts, ...inner.reverse()]);
  // fades in from the cheeks, like a painted stubble edge
  const top = full ? 0.56 : 0.68;
  const dark = mix(col, "#000000", 0.12);
  const fill = linGrad(
    c,
    [
      [0, dark, 0],
      [0.45, dark, 0.75],
      [1, dark, 0.95],
    ],
    0,
    Y(g, top),
    0,
    Y(g, top + 0.2),
  );
  c.body.push(path(d, fill));
  const sheen = mix(col, "#fff3dc", 0.25);
  c.body.push(
    path(
      d,
      radGrad(
        c,
        [
          [0, sheen, 0.4],
          [1, sheen, 0],
        ],
        g.cx + g.lightSide * h * 0.5,
        Y(g, 0.86),
        h * 0.8,
      ),
    ),
  );
}

function drawGlasses(c: Ctx): void {
  const { g } = c;
  const gr = makeRng(`glasses:${c.spec.seed}`);
  const col = gr.pick(["#2a1c16", "#1c1c1e", GOLD, "#5a3522", "#8a8f94"]);
  const round = gr.chance(0.45);
  const fy = 0.505;
  const lens = Math.min(g.eyeW * gr.range(0.66, 0.76), g.eyeSep - g.hw * 0.08);
  const lh = g.eyeW * gr.range(0.46, 0.56);
  let d = "";
  const inner: Pt[] = [];
  const outer: Pt[] = [];
  for (const s of [-1, 1]) {
    const [ex, ey] = P(g, s * g.eyeSep, fy, 6);
    const w = lens * clamp(1 - s * g.sn * 0.8, 0.6, 1.2);
    if (round) d += ellipseD(ex, ey, w, lh * 1.05);
    else {
      const rr = lh * 0.55;
      const t = ey - lh;
      const bt = ey + lh;
      d +=
        `M${f(ex - w + rr)} ${f(t)}H${f(ex + w - rr)}Q${f(ex + w)} ${f(t)} ${f(ex + w)} ${f(t + rr)}` +
        `V${f(bt - rr)}Q${f(ex + w)} ${f(bt)} ${f(ex + w - rr)} ${f(bt)}H${f(ex - w + rr)}` +
        `Q${f(ex - w)} ${f(bt)} ${f(ex - w)} ${f(bt - rr)}V${f(t + rr)}Q${f(ex - w)} ${f(t)} ${f(ex - w + rr)} ${f(t)}Z`;
    }
    inner.push([ex - s * w, ey - lh * 0.3]);
    outer.push([ex + s * w, ey - lh * 0.45]);
  }
  const [il, ir] = inner as [Pt, Pt];
  const br = P(g, 0, fy - 0.02, g.noseProj * 0.4);
  c.body.push(path(d, "#ffffff", 0.1));
  let frame = d + `M${pt(il)}Q${f(br[0])} ${f(br[1] - 8)} ${pt(ir)}`;
  // the temple arm runs back to the ear on the side we can see
  outer.forEach((e, i) => {
    const s = i === 0 ? -1 : 1;
    if (s * g.sn > 0.12) return;
    const ear = O(g, s * g.hw * 1.01, 0.46);
    if (s * (ear[0] - e[0]) > 0) frame += `M${pt(e)}L${pt(ear)}`;
  });
  c.body.push(line(frame, col, col === GOLD ? 4 : 6, 0.95));
}

// ---------------------------------------------------------------------------------------------
// Render
// ---------------------------------------------------------------------------------------------

function skinColour(tone: number): string {
  const t = clamp(Number.isFinite(tone) ? tone : 0, 0, SKIN.length - 1);
  const i = Math.min(SKIN.length - 2, Math.floor(t));
  return mix(SKIN[i] as string, SKIN[i + 1] as string, t - i);
}

/** Same spec in, byte-identical SVG out. */
export function renderPortraitSvg(spec: PortraitSpec): string {
  const r = makeRng(`portrait:${spec.seed}`);
  const g = makeFace(spec.seed);
  const tone = clamp(Number.isFinite(spec.skinTone) ? spec.skinTone : 0, 0, 5);
  g.eye = tone >= 3 ? (EYES[r.chance(0.6) ? 0 : 1] as string) : r.pick(EYES);
  const skin = skinColour(tone);
  const hair = HAIR[spec.hairColour] ?? HAIR.brown;
  const c: Ctx = {
    spec,
    r,
    g,
    defs: [],
    body: [],
    ids: 0,
    skin,
    skinHi: mix(skin, "#fff2e2", 0.2 - tone * 0.015),
    skinLo: mix(skin, "#4a2218", 0.26 + tone * 0.02),
    hair,
    bd: r.pick(BACKDROPS),
  };
  drawBackdrop(c);
  const b = frame(g);
  const hs = hairShapes(c);
  const headTop = Y(g, -0.1) - g.volume;
  const hairGrad = hairFill(c, hair, headTop, Y(g, spec.hair === "long" ? 1.5 : 0.9));
  // everything from the neck up shares the head's slight tilt
  const tiltOpen = `<g transform="rotate(${f(g.tilt)} ${f(g.cx)} ${f(Y(g, 1.2))})">`;
  if (hs.back) {
    c.body.push(tiltOpen, path(hs.back, hairGrad));
    if (spec.hair !== "bun") hairTexture(c, hs.back, hair);
    c.body.push("</g>");
  }
  drawNeck(c, b);
  drawAttire(c, b);
  c.body.push(tiltOpen);
  if (spec.hair !== "long" && spec.hair !== "wavy") drawEars(c);
  const headD = drawHead(c);
  drawEyes(c);
  const brow =
    spec.hairColour === "blonde"
      ? mix(hair, "#4a3224", 0.4)
      : spec.hairColour === "grey"
        ? mix(hair, "#4a4642", 0.35)
        : mix(hair, "#120c0a", 0.15);
  drawBrows(c, brow);
  drawNose(c);
  if (spec.hasBeard) drawBeard(c, spec.hairColour === "blonde" ? mix(hair, "#6a4a30", 0.3) : hair);
  drawMouth(c);
  if (spec.hasBeard) {
    // moustache over the upper lip
    const mt = g.noseFy + 0.035;
    const m: Pt[] = [
      P(g, -g.mouthW * 1.15, g.mouthFy + 0.012),
      P(g, -g.mouthW * 0.6, mt + 0.005),
      P(g, 0, mt - 0.004, g.noseProj * 0.2),
      P(g, g.mouthW * 0.6, mt + 0.005),
      P(g, g.mouthW * 1.15, g.mouthFy + 0.012),
      P(g, g.mouthW * 0.5, g.mouthFy - 0.012, g.noseProj * 0.1),
      P(g, 0, g.mouthFy - 0.016, g.noseProj * 0.15),
      P(g, -g.mouthW * 0.5, g.mouthFy - 0.012, g.noseProj * 0.1),
    ];
    c.body.push(path(smoothD(m), mix(hair, "#000000", 0.1), 0.85));
  }
  if (hs.front) {
    // a bald head's remaining hair fades in towards the ears
    const fade =
      spec.hair === "bald"
        ? linGrad(
            c,
            [
              [0, hair, 0],
              [1, hair, 0.9],
            ],
            0,
            Y(g, 0.3),
            0,
            Y(g, 0.42),
          )
        : hairGrad;
    c.body.push(path(hs.front, fade));
    if (spec.hair !== "bald") hairTexture(c, hs.front, hair);
  }
  if (spec.hair === "bald") {
    const [hx, hy] = P(g, g.lightSide * g.hw * 0.35, 0.08);
    const sheen = radGrad(
      c,
      [
        [0, c.skinHi, 0.55],
        [1, c.skinHi, 0],
      ],
      hx,
      hy,
      90,
    );
    c.body.push(clip(c, headD, path(ellipseD(hx, hy, 90, 90), sheen)));
  }
  if (spec.hasGlasses) drawGlasses(c);
  c.body.push("</g>");
  // vignette
  c.body.push(
    `<rect width="${S}" height="${S}" fill="${radGrad(
      c,
      [
        [0.55, c.bd.deep, 0],
        [1, c.bd.deep, 0.35],
      ],
      600,
      520,
      900,
    )}"/>`,
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${S}" height="${S}" viewBox="0 0 ${S} ${S}">` +
    `<defs>${c.defs.join("")}</defs>${c.body.join("")}</svg>`
  );
}
