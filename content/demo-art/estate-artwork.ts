/**
 * Deterministic estate illustrations: painted travel-poster landscapes as SVG strings.
 *
 * Same scene in, byte-identical SVG out. The building (proportions, palette) is derived from
 * the seed alone, so all images of one estate show the same place; the index picks the time
 * of day, the viewpoint and the details. No text, fonts, filters or external references.
 */
import { ARCHITECTURES, TERRAINS } from "#domain/catalogue/catalogue-keys.ts";
import { ILLUSTRATION_HEIGHT, ILLUSTRATION_WIDTH } from "#domain/media/artwork.ts";
import { mix, smoothstep as smooth } from "./colour.ts";
import { makeRng, type Rng } from "./seeded-random.ts";

export type Terrain = (typeof TERRAINS)[number];
export type Architecture = (typeof ARCHITECTURES)[number];

export interface EstateScene {
  seed: string;
  terrain: Terrain;
  architecture: Architecture;
  index: number;
}

// The size the domain records for every illustration (domain/media/artwork.ts); a change to
// this generator's output bumps ILLUSTRATION_VERSION there.
const W = ILLUSTRATION_WIDTH;
const H = ILLUSTRATION_HEIGHT;
const TAU = Math.PI * 2;

// ---------------------------------------------------------------------------------------------
// Numbers, colours, path helpers
// ---------------------------------------------------------------------------------------------

type Pt = readonly [number, number];

const f = (n: number): string => String(Math.round(n * 10) / 10);

function polyD(p: readonly Pt[]): string {
  return "M" + p.map(([x, y]) => `${f(x)} ${f(y)}`).join("L") + "Z";
}

function ellipseD(cx: number, cy: number, rx: number, ry: number): string {
  return `M${f(cx - rx)} ${f(cy)}a${f(rx)} ${f(ry)} 0 1 0 ${f(2 * rx)} 0a${f(rx)} ${f(ry)} 0 1 0 ${f(-2 * rx)} 0Z`;
}

function rectD(x: number, y: number, w: number, h: number): string {
  return `M${f(x)} ${f(y)}h${f(w)}v${f(h)}h${f(-w)}Z`;
}

function archD(x: number, y: number, w: number, h: number): string {
  const r = w / 2;
  return `M${f(x)} ${f(y + h)}V${f(y + r)}a${f(r)} ${f(r)} 0 0 1 ${f(w)} 0V${f(y + h)}Z`;
}

const path = (d: string, fill: string, extra = ""): string =>
  d ? `<path d="${d}" fill="${fill}"${extra}/>` : "";

const op = (o: number): string =>
  ` opacity="${f(o * 100) === "100" ? 1 : Math.round(o * 100) / 100}"`;

// ---------------------------------------------------------------------------------------------
// Time of day
// ---------------------------------------------------------------------------------------------

type TimeOfDay = "dawn" | "morning" | "midday" | "golden" | "dusk" | "night";
const TIMES: readonly TimeOfDay[] = ["dawn", "morning", "midday", "golden", "dusk", "night"];

interface Sky {
  time: TimeOfDay;
  top: string;
  mid: string;
  horizon: string;
  sun: string;
  glow: string;
  glowOpacity: number;
  light: string;
  ambient: string;
  amb: number;
  haze: string;
  hazeAmt: number;
  cloud: string;
  sunY: number; // relative to horizon: 0 = horizon, 1 = top of frame
  sunR: number;
  night: boolean;
  litWindows: number;
  water: string;
}

const SKIES: Record<TimeOfDay, Sky> = {
  dawn: {
    time: "dawn",
    top: "#34406e",
    mid: "#a48bb0",
    horizon: "#f6c7a6",
    sun: "#fff4dc",
    glow: "#ffd3ac",
    glowOpacity: 0.75,
    light: "#ffd9c2",
    ambient: "#5b5a8c",
    amb: 0.32,
    haze: "#d2b2be",
    hazeAmt: 0.8,
    cloud: "#f4b9a6",
    sunY: 0.12,
    sunR: 46,
    night: false,
    litWindows: 0.25,
    water: "#8f8fb4",
  },
  morning: {
    time: "morning",
    top: "#4f82c6",
    mid: "#94bce2",
    horizon: "#e5ede9",
    sun: "#fffbea",
    glow: "#fff2cf",
    glowOpacity: 0.55,
    light: "#fff3dc",
    ambient: "#6a80aa",
    amb: 0.12,
    haze: "#c5d6e3",
    hazeAmt: 0.7,
    cloud: "#ffffff",
    sunY: 0.5,
    sunR: 40,
    night: false,
    litWindows: 0,
    water: "#6f9ebf",
  },
  midday: {
    time: "midday",
    top: "#3a70bd",
    mid: "#78aadc",
    horizon: "#d3e4ee",
    sun: "#ffffff",
    glow: "#fffbe6",
    glowOpacity: 0.45,
    light: "#fffaf0",
    ambient: "#5c7399",
    amb: 0.06,
    haze: "#bcd1e3",
    hazeAmt: 0.65,
    cloud: "#ffffff",
    sunY: 0.85,
    sunR: 38,
    night: false,
    litWindows: 0,
    water: "#4f88b5",
  },
  golden: {
    time: "golden",
    top: "#52689e",
    mid: "#d9a77e",
    horizon: "#fbd596",
    sun: "#fff1c4",
    glow: "#ffbd6b",
    glowOpacity: 0.75,
    light: "#ffcf8c",
    ambient: "#6e5670",
    amb: 0.2,
    haze: "#eec497",
    hazeAmt: 0.75,
    cloud: "#f6c38e",
    sunY: 0.2,
    sunR: 48,
    night: false,
    litWindows: 0.15,
    water: "#b59a86",
  },
  dusk: {
    time: "dusk",
    top: "#1e2551",
    mid: "#70507e",
    horizon: "#ec9269",
    sun: "#ffc58f",
    glow: "#ff9a6e",
    glowOpacity: 0.6,
    light: "#f7a584",
    ambient: "#2e2b58",
    amb: 0.5,
    haze: "#9c7190",
    hazeAmt: 0.75,
    cloud: "#c9728a",
    sunY: 0.02,
    sunR: 50,
    night: false,
    litWindows: 0.6,
    water: "#6c5a82",
  },
  night: {
    time: "night",
    top: "#060a1c",
    mid: "#132049",
    horizon: "#2f4472",
    sun: "#f3f0e2",
    glow: "#9fb2de",
    glowOpacity: 0.35,
    light: "#b9c8ec",
    ambient: "#0c1431",
    amb: 0.72,
    haze: "#2a3b66",
    hazeAmt: 0.6,
    cloud: "#3a4a78",
    sunY: 0.68,
    sunR: 34,
    night: true,
    litWindows: 0.7,
    water: "#243562",
  },
};

// ---------------------------------------------------------------------------------------------
// Estate (seed only) and view (seed + index)
// ---------------------------------------------------------------------------------------------

interface Estate {
  wall: string;
  roof: string;
  trim: string;
  foliage: string;
  size: number;
  width: number;
  height: number;
  variant: number;
  round: boolean;
  towers: number;
  bays: number;
  storeys: number;
  flag: string;
  todOrder: TimeOfDay[];
  viewShift: number;
}

const STONES = ["#d9cbb0", "#cdbf9f", "#e2d6bd", "#bfb29b", "#d6c2a0"];
const RENDERS = ["#e8c98f", "#e3b98a", "#efd9ae", "#dcae86", "#f1e2c4"];
const BRICKS = ["#a8684f", "#9b5f4a", "#b37a5c", "#c9b48f", "#bfa783"];
const SLATES = ["#4f5866", "#56606e", "#4a5161", "#5d6470"];
const TERRACOTTAS = ["#b8603f", "#a95a3c", "#c06f48", "#b0664a"];
const MANOR_ROOFS = ["#5a5250", "#6b5647", "#55585e", "#7a5a45"];
const FLAGS = ["#7d2330", "#233a6e", "#1f5a46", "#8a6a22"];

function makeEstate(seed: string, arch: Architecture): Estate {
  const r = makeRng(`estate:${seed}`);
  let wall = r.pick(STONES);
  let roof = r.pick(SLATES);
  if (arch === "villa") {
    wall = r.pick(RENDERS);
    roof = r.pick(TERRACOTTAS);
  } else if (arch === "manor") {
    wall = r.pick(BRICKS);
    roof = r.pick(MANOR_ROOFS);
  } else if (arch === "castle" || arch === "tower") {
    wall = mix(r.pick(STONES), "#9c9485", r.range(0.1, 0.4));
    roof = r.pick(SLATES);
  }
  const order = [...TIMES];
  for (let i = order.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    const t = order[i] as TimeOfDay;
    order[i] = order[j] as TimeOfDay;
    order[j] = t;
  }
  // The first (hero) image should be a daylight or golden picture.
  const hero = order.findIndex((t) => t === "golden" || t === "morning" || t === "midday");
  if (hero > 0) {
    const t = order[0] as TimeOfDay;
    order[0] = order[hero] as TimeOfDay;
    order[hero] = t;
  }
  return {
    wall,
    roof,
    trim: mix(wall, "#ffffff", 0.35),
    foliage: r.pick(["#4d6b3a", "#55703c", "#46663e", "#5b7441"]),
    size: r.range(0.88, 1.12),
    width: r.range(0.9, 1.15),
    height: r.range(0.9, 1.15),
    variant: r.int(0, 2),
    round: r.chance(0.6),
    towers: r.int(2, 4),
    bays: r.int(5, 9),
    storeys: r.int(2, 3),
    flag: r.pick(FLAGS),
    todOrder: order,
    viewShift: r.int(0, 5),
  };
}

interface View {
  bx: number; // building x, fraction of width
  scale: number;
  gy: number; // ground line of the building, fraction of height
  close: boolean;
  terrace?: boolean; // seen from a balustraded terrace
}

const VIEWS: readonly View[] = [
  { bx: 0.5, scale: 0.7, gy: 0.63, close: false },
  { bx: 0.68, scale: 0.85, gy: 0.67, close: false },
  { bx: 0.32, scale: 0.85, gy: 0.67, close: false },
  { bx: 0.5, scale: 1.12, gy: 0.74, close: true },
  { bx: 0.26, scale: 0.6, gy: 0.6, close: false },
  { bx: 0.72, scale: 1.15, gy: 0.75, close: true },
  { bx: 0.6, scale: 0.9, gy: 0.6, close: false, terrace: true },
  { bx: 0.44, scale: 1.42, gy: 0.8, close: true },
];

// ---------------------------------------------------------------------------------------------
// Scene context
// ---------------------------------------------------------------------------------------------

interface Ctx {
  r: Rng;
  sky: Sky;
  est: Estate;
  terrain: Terrain;
  arch: Architecture;
  defs: string[];
  body: string[];
  bx: number; // building centre x (px)
  by: number; // building ground line (px)
  s: number; // building scale
  bw: number; // building half width (px)
  sunX: number;
  sunYpx: number;
  lightLeft: boolean;
  horizon: number;
  close: boolean;
  terrace: boolean;
  parterre: boolean;
  ids: number;
}

function gradId(c: Ctx): string {
  c.ids += 1;
  return `g${c.ids}`;
}

/** Shade a daylight base colour for the scene's light and distance (0 near, 1 far). */
function land(c: Ctx, base: string, depth: number): string {
  let col = mix(base, c.sky.light, 0.12);
  col = mix(col, c.sky.ambient, c.sky.amb);
  return mix(col, c.sky.haze, depth * c.sky.hazeAmt);
}

function vGrad(c: Ctx, top: string, bottom: string, y1?: number, y2?: number): string {
  const id = gradId(c);
  const units =
    y1 === undefined
      ? `x2="0" y2="1"`
      : `gradientUnits="userSpaceOnUse" x1="0" y1="${f(y1)}" x2="0" y2="${f(y2 ?? H)}"`;
  c.defs.push(
    `<linearGradient id="${id}" ${units}><stop offset="0" stop-color="${top}"/><stop offset="1" stop-color="${bottom}"/></linearGradient>`,
  );
  return `url(#${id})`;
}

/** Horizontal gradient lit on the light side: for cylinders and cones. */
function cylGrad(c: Ctx, lit: string, mid: string, dark: string): string {
  const id = gradId(c);
  const [a, b] = c.lightLeft ? [lit, dark] : [dark, lit];
  c.defs.push(
    `<linearGradient id="${id}"><stop offset="0" stop-color="${a}"/><stop offset=".45" stop-color="${mid}"/><stop offset="1" stop-color="${b}"/></linearGradient>`,
  );
  return `url(#${id})`;
}

// ---------------------------------------------------------------------------------------------
// Landscape primitives
// ---------------------------------------------------------------------------------------------

interface RidgeOpts {
  freq?: number;
  plateau?: { x: number; w: number; y: number };
  step?: number;
}

function ridge(r: Rng, y0: number, amp: number, o: RidgeOpts = {}): Pt[] {
  const fr = o.freq ?? 1;
  const p1 = r.range(0, TAU);
  const p2 = r.range(0, TAU);
  const p3 = r.range(0, TAU);
  const step = o.step ?? 20;
  const out: Pt[] = [];
  for (let x = -20; x <= W + 20; x += step) {
    const u = (x / W) * TAU * fr;
    const n =
      0.55 * Math.sin(u * 0.8 + p1) + 0.3 * Math.sin(u * 1.9 + p2) + 0.15 * Math.sin(u * 4.3 + p3);
    let y = y0 - amp * n;
    if (o.plateau) {
      const t = smooth(o.plateau.w, o.plateau.w * 2.2, Math.abs(x - o.plateau.x));
      y = o.plateau.y * (1 - t) + y * t;
    }
    out.push([x, y]);
  }
  return out;
}

function mountainRidge(
  r: Rng,
  y0: number,
  amp: number,
  plateau?: { x: number; w: number; y: number },
): Pt[] {
  let pts: Pt[] = [];
  const n = r.int(4, 6);
  for (let i = 0; i <= n; i++) {
    const x = -60 + ((W + 120) * i) / n + r.range(-60, 60) * (i > 0 && i < n ? 1 : 0);
    const peak = i % 2 === 1;
    pts.push([x, y0 - amp * (peak ? r.range(0.6, 1) : r.range(0.05, 0.35))]);
  }
  let disp = amp * 0.22;
  for (let k = 0; k < 5; k++) {
    const next: Pt[] = [];
    for (let i = 0; i < pts.length - 1; i++) {
      const a = pts[i] as Pt;
      const b = pts[i + 1] as Pt;
      next.push(a);
      next.push([
        (a[0] + b[0]) / 2 + r.range(-0.1, 0.1) * (b[0] - a[0]),
        (a[1] + b[1]) / 2 + r.range(-disp, disp),
      ]);
    }
    next.push(pts[pts.length - 1] as Pt);
    pts = next;
    disp *= 0.5;
  }
  if (plateau) {
    pts = pts.map(([x, y]) => {
      const t = smooth(plateau.w, plateau.w * 2.5, Math.abs(x - plateau.x));
      return [x, plateau.y * (1 - t) + y * t] as Pt;
    });
  }
  return pts;
}

function landD(top: readonly Pt[], bottom = H + 10): string {
  const first = top[0] as Pt;
  const last = top[top.length - 1] as Pt;
  return polyD([...top, [last[0], bottom], [first[0], bottom]]);
}

function yAt(top: readonly Pt[], x: number): number {
  for (let i = 0; i < top.length - 1; i++) {
    const a = top[i] as Pt;
    const b = top[i + 1] as Pt;
    if (x >= a[0] && x <= b[0]) return a[1] + ((b[1] - a[1]) * (x - a[0])) / (b[0] - a[0] || 1);
  }
  return (top[top.length - 1] as Pt)[1];
}

/** A land layer with a soft vertical gradient. */
function layer(c: Ctx, top: readonly Pt[], base: string, depth: number, bottom = H + 10): void {
  const ys = top.map((p) => p[1]);
  const y1 = Math.min(...ys);
  const topCol = mix(land(c, base, depth), c.sky.light, c.sky.night ? 0.04 : 0.12);
  const botCol = land(c, mix(base, "#1f2a1a", 0.25), Math.max(0, depth - 0.15));
  c.body.push(path(landD(top, bottom), vGrad(c, topCol, botCol, y1, Math.min(bottom, y1 + 420))));
}

function cypressD(x: number, y: number, h: number): string {
  const w = h * 0.12;
  return `M${f(x)} ${f(y - h)}Q${f(x + w * 1.25)} ${f(y - h * 0.55)} ${f(x + w * 0.55)} ${f(y)}H${f(x - w * 0.55)}Q${f(x - w * 1.25)} ${f(y - h * 0.55)} ${f(x)} ${f(y - h)}Z`;
}

function cypressLitD(x: number, y: number, h: number, left: boolean): string {
  const w = h * 0.12 * (left ? -1 : 1);
  return `M${f(x)} ${f(y - h)}Q${f(x + w * 1.25)} ${f(y - h * 0.55)} ${f(x + w * 0.55)} ${f(y)}H${f(x + w * 0.1)}Q${f(x + w * 0.4)} ${f(y - h * 0.5)} ${f(x)} ${f(y - h)}Z`;
}

function pineD(x: number, y: number, h: number): string {
  const w = h * 0.32;
  let d = "";
  for (let k = 0; k < 3; k++) {
    const top = y - h + k * h * 0.24;
    const bot = y - h * 0.1 - (2 - k) * h * 0.16;
    const ww = w * (0.55 + k * 0.25);
    d += `M${f(x)} ${f(top)}L${f(x + ww)} ${f(bot)}H${f(x - ww)}Z`;
  }
  d += rectD(x - h * 0.025, y - h * 0.12, h * 0.05, h * 0.12);
  return d;
}

interface Trees {
  dark: string;
  lit: string;
  shadow?: string;
}

function oakD(r: Rng, x: number, y: number, s: number, left: boolean, t: Trees): void {
  const lean = r.range(-0.08, 0.08) * s;
  t.dark += polyD([
    [x - s * 0.08, y],
    [x - s * 0.045 + lean, y - s * 0.8],
    [x + s * 0.045 + lean, y - s * 0.8],
    [x + s * 0.08, y],
  ]);
  t.dark += polyD([
    [x + lean, y - s * 0.5],
    [x - s * 0.3, y - s * 0.9],
    [x - s * 0.26, y - s * 0.93],
    [x + lean + s * 0.03, y - s * 0.6],
  ]);
  t.dark += polyD([
    [x + lean, y - s * 0.55],
    [x + s * 0.32, y - s * 0.95],
    [x + s * 0.28, y - s * 0.97],
    [x + lean - s * 0.03, y - s * 0.65],
  ]);
  const cx0 = x + lean;
  const cy0 = y - s * 1.08;
  t.dark += ellipseD(cx0, cy0, s * 0.5, s * 0.36);
  const blobs = s < 50 ? 4 : s < 130 ? 7 : 11;
  for (let i = 0; i < blobs; i++) {
    const a = r.range(-0.15, Math.PI + 0.15);
    const rr = r.range(0.55, 1);
    const rx = s * r.range(0.2, 0.32);
    t.dark += ellipseD(
      cx0 + Math.cos(a) * s * 0.6 * rr,
      cy0 - Math.sin(a) * s * 0.4 * rr + s * 0.08,
      rx,
      rx * 0.8,
    );
  }
  const dx = left ? -1 : 1;
  t.shadow = (t.shadow ?? "") + ellipseD(x - dx * s * 0.45, y + s * 0.02, s * 0.65, s * 0.08);
  for (let i = 0; i < (s < 50 ? 2 : s < 130 ? 3 : 5); i++) {
    const a = r.range(0.2, 1.3);
    const rx = s * r.range(0.13, 0.22);
    t.lit += ellipseD(
      cx0 + dx * Math.cos(a) * s * 0.5,
      cy0 - Math.sin(a) * s * 0.38,
      rx,
      rx * 0.75,
    );
  }
}

function umbrellaPineD(r: Rng, x: number, y: number, s: number, left: boolean, t: Trees): void {
  const lean = r.range(-0.25, 0.25) * s;
  t.dark += `M${f(x - s * 0.04)} ${f(y)}L${f(x + lean - s * 0.02)} ${f(y - s * 1.3)}H${f(x + lean + s * 0.03)}L${f(x + s * 0.04)} ${f(y)}Z`;
  const cx = x + lean;
  const cy = y - s * 1.38;
  t.dark += ellipseD(cx, cy, s * 0.75, s * 0.2);
  t.dark += ellipseD(cx + r.range(-0.2, 0.2) * s, cy - s * 0.12, s * 0.55, s * 0.16);
  t.lit += ellipseD(cx + (left ? -1 : 1) * s * 0.2, cy - s * 0.15, s * 0.4, s * 0.1);
}

function pushTrees(c: Ctx, t: Trees, base: string, depth: number): void {
  const dark = land(c, base, depth);
  if (t.shadow && !c.sky.night)
    c.body.push(path(t.shadow, c.sky.ambient, op(c.sky.time === "dusk" ? 0.15 : 0.3)));
  c.body.push(path(t.dark, dark));
  c.body.push(path(t.lit, mix(dark, c.sky.light, c.sky.night ? 0.12 : 0.28)));
}

// ---------------------------------------------------------------------------------------------
// Sky
// ---------------------------------------------------------------------------------------------

function drawSky(c: Ctx): void {
  const { sky } = c;
  const id = gradId(c);
  c.defs.push(
    `<linearGradient id="${id}" gradientUnits="userSpaceOnUse" x1="0" y1="0" x2="0" y2="${f(c.horizon)}"><stop offset="0" stop-color="${sky.top}"/><stop offset=".6" stop-color="${sky.mid}"/><stop offset="1" stop-color="${sky.horizon}"/></linearGradient>`,
  );
  c.body.push(`<rect width="${W}" height="${H}" fill="url(#${id})"/>`);

  if (sky.night || sky.time === "dusk") {
    let d1 = "";
    let d2 = "";
    const n = sky.night ? 90 : 30;
    for (let i = 0; i < n; i++) {
      const x = c.r.range(0, W);
      const y = c.r.range(0, c.horizon * (sky.night ? 0.8 : 0.45));
      const d = `M${f(x)} ${f(y)}h.1`;
      if (c.r.chance(0.15)) d1 += d;
      else d2 += d;
    }
    const dot = (w: number, o: number) =>
      ` stroke-width="${w}" stroke-linecap="round" stroke-opacity="${o}"`;
    c.body.push(path(d1, "none", ` stroke="#fffbe8"${dot(4.4, sky.night ? 0.9 : 0.5)}`));
    c.body.push(path(d2, "none", ` stroke="#eef2ff"${dot(2.4, sky.night ? 0.6 : 0.3)}`));
  }

  // Glow and disc
  const gid = gradId(c);
  c.defs.push(
    `<radialGradient id="${gid}"><stop offset="0" stop-color="${sky.glow}" stop-opacity="${sky.glowOpacity}"/><stop offset=".35" stop-color="${sky.glow}" stop-opacity="${f(sky.glowOpacity * 0.35)}"/><stop offset="1" stop-color="${sky.glow}" stop-opacity="0"/></radialGradient>`,
  );
  const gr = sky.time === "midday" ? 420 : sky.night ? 360 : 720;
  c.body.push(`<circle cx="${f(c.sunX)}" cy="${f(c.sunYpx)}" r="${gr}" fill="url(#${gid})"/>`);
  c.body.push(`<circle cx="${f(c.sunX)}" cy="${f(c.sunYpx)}" r="${sky.sunR}" fill="${sky.sun}"/>`);
  if (sky.night) {
    const m = mix(sky.sun, "#9aa3b8", 0.5);
    c.body.push(
      path(
        ellipseD(c.sunX - 9, c.sunYpx - 6, 9, 7) +
          ellipseD(c.sunX + 10, c.sunYpx + 8, 7, 6) +
          ellipseD(c.sunX + 4, c.sunYpx - 14, 5, 4),
        m,
        op(0.35),
      ),
    );
  }
}

function drawClouds(c: Ctx): void {
  const { sky, r } = c;
  const n = sky.time === "midday" ? r.int(2, 4) : r.int(3, 6);
  let body = "";
  let under = "";
  for (let i = 0; i < n; i++) {
    const cx = r.range(-100, W + 100);
    const cy = r.range(c.horizon * 0.12, c.horizon * 0.7);
    const len = r.range(160, 420) * (0.6 + cy / c.horizon);
    const hgt = len * r.range(0.08, 0.14);
    const lumps = r.int(3, 5);
    for (let k = 0; k < lumps; k++) {
      const lx = cx - len / 2 + (len * (k + 0.5)) / lumps;
      const rx = (len / lumps) * r.range(0.7, 1);
      const ry = hgt * r.range(0.6, 1.2) * (k === 0 || k === lumps - 1 ? 0.6 : 1);
      body += ellipseD(lx, cy - ry * 0.5, rx, ry);
    }
    under += ellipseD(cx, cy + hgt * 0.1, len * 0.6, hgt * 0.35);
  }
  const top = sky.night ? mix(sky.cloud, sky.mid, 0.3) : mix(sky.cloud, sky.light, 0.3);
  c.body.push(path(under, mix(sky.cloud, sky.ambient, 0.3), op(sky.night ? 0.45 : 0.5)));
  c.body.push(path(body, top, op(sky.night ? 0.35 : sky.time === "midday" ? 0.85 : 0.6)));
}

// ---------------------------------------------------------------------------------------------
// Buildings (local units: base centre at 0,0, y up is negative, ~440 units wide)
// ---------------------------------------------------------------------------------------------

interface B {
  c: Ctx;
  out: string[];
  dark: string;
  lit: string;
  wall: string;
  wallLit: string;
  wallShade: string;
  trim: string;
  cylWall: string;
  roof: string;
  roofLit: string;
  roofShade: string;
  cylRoof: string;
  glass: string;
  glassLit: string;
  rr: Rng;
}

function flush(b: B): void {
  if (b.dark) b.out.push(path(b.dark, b.glass));
  if (b.lit) b.out.push(path(b.lit, b.glassLit));
  b.dark = "";
  b.lit = "";
}

function add(b: B, s: string): void {
  flush(b);
  b.out.push(s);
}

function win(b: B, x: number, y: number, w: number, h: number, arched = false): void {
  const d = arched ? archD(x, y, w, h) : rectD(x, y, w, h);
  if (b.rr.next() < b.c.sky.litWindows) b.lit += d;
  else b.dark += d;
}

function crenelD(
  x0: number,
  x1: number,
  top: number,
  bottom: number,
  mw: number,
  mh: number,
): string {
  const n = Math.max(2, Math.round((x1 - x0) / (mw * 2)));
  const slots = n * 2 - 1;
  const sw = (x1 - x0) / slots;
  let d = `M${f(x0)} ${f(bottom)}V${f(top - mh)}`;
  for (let i = 0; i < slots; i++) {
    d += `H${f(x0 + sw * (i + 1))}`;
    if (i < slots - 1) d += `V${f(i % 2 === 0 ? top : top - mh)}`;
  }
  d += `V${f(bottom)}Z`;
  return d;
}

function roundTower(
  b: B,
  cx: number,
  base: number,
  r: number,
  h: number,
  top: "crenel" | "cone" | "flat",
  coneH = r * 2.4,
): void {
  add(b, path(rectD(cx - r, base - h, r * 2, h), b.cylWall));
  if (top === "crenel") {
    const pr = r * 1.14;
    add(b, path(rectD(cx - pr, base - h - r * 0.32, pr * 2, r * 0.32), b.cylWall));
    add(b, path(rectD(cx - pr, base - h, pr * 2, r * 0.08), b.wallShade, op(0.6)));
    add(
      b,
      path(
        crenelD(cx - pr, cx + pr, base - h - r * 0.32, base - h - r * 0.3, r * 0.26, r * 0.3),
        b.cylWall,
      ),
    );
  } else if (top === "cone") {
    const pr = r * 1.15;
    add(
      b,
      path(
        `M${f(cx - pr)} ${f(base - h)}L${f(cx)} ${f(base - h - coneH)}L${f(cx + pr)} ${f(base - h)}Z`,
        b.cylRoof,
      ),
    );
    add(b, path(rectD(cx - 1, base - h - coneH - r * 0.4, 2, r * 0.4), b.roofShade));
  }
  const rows = Math.max(1, Math.floor(h / (r * 1.6)));
  for (let i = 0; i < rows; i++) {
    const wy = base - h + r * 0.7 + i * ((h - r * 1.2) / rows);
    if (b.rr.chance(0.7))
      win(b, cx - r * 0.12 + (i % 2 ? r * 0.25 : -r * 0.2), wy, r * 0.22, r * 0.55, true);
  }
  flush(b);
}

function squareTower(
  b: B,
  cx: number,
  base: number,
  w: number,
  h: number,
  top: "crenel" | "roof" | "flat",
): void {
  const side = w * 0.18;
  const sx = b.c.lightLeft ? cx + w / 2 : cx - w / 2 - side;
  add(b, path(rectD(sx, base - h + side * 0.4, side, h - side * 0.4), b.wallShade));
  add(b, path(rectD(cx - w / 2, base - h, w, h), b.wall));
  if (top === "crenel") {
    const pw = w * 0.56;
    add(
      b,
      path(
        crenelD(cx - pw, cx + pw, base - h - w * 0.16, base - h + 2, w * 0.09, w * 0.12),
        b.wall,
      ),
    );
    add(b, path(rectD(cx - pw, base - h - 2, pw * 2, w * 0.05), b.wallShade, op(0.7)));
  } else if (top === "roof") {
    const rh = w * 1.1;
    add(
      b,
      path(
        `M${f(cx - w * 0.6)} ${f(base - h)}L${f(cx)} ${f(base - h - rh)}L${f(cx + w * 0.6)} ${f(base - h)}Z`,
        b.roof,
      ),
    );
    const lx = b.c.lightLeft ? -1 : 1;
    add(
      b,
      path(
        `M${f(cx + lx * w * 0.6)} ${f(base - h)}L${f(cx)} ${f(base - h - rh)}L${f(cx + lx * w * 0.1)} ${f(base - h)}Z`,
        b.roofLit,
        op(0.6),
      ),
    );
  }
}

function hipRoof(
  b: B,
  x0: number,
  x1: number,
  y: number,
  rh: number,
  inset: number,
  eave = 0,
): void {
  const d = polyD([
    [x0 - eave, y],
    [x0 + inset, y - rh],
    [x1 - inset, y - rh],
    [x1 + eave, y],
  ]);
  add(b, path(d, b.roof));
  // Light on the sloping end facing the light
  const end: Pt[] = b.c.lightLeft
    ? [
        [x0 - eave, y],
        [x0 + inset, y - rh],
        [x0 + inset + 2, y],
      ]
    : [
        [x1 + eave, y],
        [x1 - inset, y - rh],
        [x1 - inset - 2, y],
      ];
  add(b, path(polyD(end), b.roofLit, op(0.55)));
  add(b, path(rectD(x0 - eave, y - 3, x1 - x0 + eave * 2, 4), b.roofShade, op(0.8)));
}

function chimney(b: B, x: number, y: number, w: number, h: number): void {
  add(b, path(rectD(x, y - h, w, h) + rectD(x - 2, y - h - 4, w + 4, 5), b.wallShade));
}

function drawCastle(b: B): void {
  const e = b.c.est;
  const hw = 190 * e.width;
  const wallH = 105 * e.height;
  // keep behind the wall
  const keepX = (e.variant - 1) * 45;
  squareTower(b, keepX, -wallH * 0.6, 110, 210 * e.height, "crenel");
  flush(b);
  for (let i = 0; i < 3; i++)
    win(b, keepX - 30 + i * 25, -wallH * 0.6 - 180 * e.height, 10, 24, true);
  win(b, keepX - 6, -wallH * 0.6 - 110 * e.height, 12, 28, true);
  flush(b);
  // great hall roof behind the wall
  hipRoof(b, -hw * 0.7, keepX - 60, -wallH + 4, 40, 18);
  // curtain wall
  add(b, path(crenelD(-hw, hw, -wallH, 0, 11, 13), b.wall));
  add(b, path(rectD(-hw, -wallH - 2, hw * 2, 5), b.wallShade, op(0.5)));
  for (let i = 0; i < 6; i++) win(b, -hw + 40 + i * ((hw * 2 - 80) / 5), -wallH * 0.55, 5, 16);
  flush(b);
  // towers
  const towerTop = e.variant === 2 ? "cone" : "crenel";
  const tH = wallH + 70 * e.height;
  const xs = e.towers >= 3 ? [-hw, -hw * 0.4, hw] : [-hw, hw];
  if (e.towers === 4) xs.push(hw * 0.45);
  for (const tx of xs) {
    if (e.round) roundTower(b, tx, 0, 34, tH + b.rr.range(-10, 16), towerTop);
    else
      squareTower(b, tx, 0, 66, tH + b.rr.range(-10, 16), towerTop === "cone" ? "roof" : "crenel");
    flush(b);
  }
  // gatehouse
  const gx = e.towers >= 3 ? hw * 0.2 : 0;
  roundTower(b, gx - 36, 0, 22, wallH + 30, "crenel");
  roundTower(b, gx + 36, 0, 22, wallH + 30, "crenel");
  add(b, path(crenelD(gx - 30, gx + 30, -wallH - 12, 0, 7, 9), b.wall));
  add(b, path(archD(gx - 16, -52, 32, 52), b.glass));
  // flag
  const fy = -wallH * 0.6 - 210 * e.height - 20;
  add(b, path(rectD(keepX - 1.2, fy - 50, 2.4, 52), b.roofShade));
  add(
    b,
    path(
      `M${f(keepX + 1)} ${f(fy - 50)}L${f(keepX + 34)} ${f(fy - 43)}L${f(keepX + 1)} ${f(fy - 35)}Z`,
      land(b.c, e.flag, 0),
    ),
  );
}

function drawChateau(b: B): void {
  const e = b.c.est;
  const hw = 150 * e.width;
  const storeys = e.storeys + 1;
  const fh = 42 * storeys * e.height;
  const rh = 95 * e.height;
  // chimneys behind roof
  chimney(b, -hw * 0.55, -fh - rh * 0.6, 14, rh * 0.85);
  chimney(b, hw * 0.5, -fh - rh * 0.6, 14, rh * 0.85);
  // main body
  add(b, path(rectD(-hw, -fh, hw * 2, fh), b.wall));
  add(b, path(rectD(-hw, -fh, hw * 2, 6) + rectD(-hw, -12, hw * 2, 12), b.wallLit, op(0.5)));
  const bays = e.bays;
  const bw = (hw * 2) / bays;
  for (let s = 0; s < storeys; s++) {
    for (let i = 0; i < bays; i++) {
      const y = -fh + 14 + s * (fh / storeys);
      win(
        b,
        -hw + i * bw + bw * 0.3,
        y,
        bw * 0.4,
        fh / storeys - 26,
        s === storeys - 1 && e.variant === 1,
      );
    }
  }
  flush(b);
  // roof
  hipRoof(b, -hw - 4, hw + 4, -fh, rh, 34);
  // dormers
  for (let i = 1; i < bays; i += 2) {
    const x = -hw + i * bw + bw / 2;
    const dw = bw * 0.5;
    const y = -fh - rh * 0.42;
    add(
      b,
      path(
        `M${f(x - dw / 2)} ${f(y + 28)}V${f(y)}L${f(x)} ${f(y - 14)}L${f(x + dw / 2)} ${f(y)}V${f(y + 28)}Z`,
        b.trim,
      ),
    );
    win(b, x - dw * 0.28, y + 2, dw * 0.56, 20, true);
  }
  flush(b);
  // central pavilion
  if (e.variant !== 0) {
    const pw = bw * 1.6;
    add(b, path(rectD(-pw, -fh - 10, pw * 2, fh + 10), b.wall));
    add(
      b,
      path(rectD(-pw, -fh - 10, 6, fh + 10), b.c.lightLeft ? b.wallLit : b.wallShade, op(0.6)),
    );
    for (let s = 0; s < storeys; s++)
      win(b, -bw * 0.25, -fh + 6 + s * (fh / storeys), bw * 0.5, fh / storeys - 22, true);
    flush(b);
    const lx = b.c.lightLeft ? -1 : 1;
    if (e.variant === 1) {
      const apex = -fh - rh * 1.55;
      add(
        b,
        path(`M${f(-pw - 6)} ${f(-fh - 10)}L0 ${f(apex)}L${f(pw + 6)} ${f(-fh - 10)}Z`, b.roof),
      );
      add(
        b,
        path(
          `M${f(lx * (pw + 6))} ${f(-fh - 10)}L0 ${f(apex)}L${f(lx * pw * 0.3)} ${f(-fh - 10)}Z`,
          b.roofLit,
          op(0.5),
        ),
      );
      add(b, path(rectD(-1.5, apex - 24, 3, 26), b.roofShade));
    } else {
      const rt = -fh - rh * 1.2;
      add(
        b,
        path(
          `M${f(-pw - 6)} ${f(-fh - 10)}L${f(-pw * 0.4)} ${f(rt)}H${f(pw * 0.4)}L${f(pw + 6)} ${f(-fh - 10)}Z`,
          b.roof,
        ),
      );
      add(
        b,
        path(
          `M${f(lx * (pw + 6))} ${f(-fh - 10)}L${f(lx * pw * 0.4)} ${f(rt)}L${f(lx * pw * 0.25)} ${f(-fh - 10)}Z`,
          b.roofLit,
          op(0.5),
        ),
      );
      // lantern
      const lw = pw * 0.32;
      add(b, path(rectD(-lw, rt - 34, lw * 2, 34), b.cylWall));
      win(b, -lw * 0.5, rt - 28, lw * 0.4, 20, true);
      win(b, lw * 0.1, rt - 28, lw * 0.4, 20, true);
      flush(b);
      add(
        b,
        path(
          `M${f(-lw - 4)} ${f(rt - 34)}Q${f(-lw * 0.4)} ${f(rt - 60)} 0 ${f(rt - 72)}Q${f(lw * 0.4)} ${f(rt - 60)} ${f(lw + 4)} ${f(rt - 34)}Z`,
          b.cylRoof,
        ),
      );
      add(b, path(rectD(-1.5, rt - 92, 3, 22), b.roofShade));
    }
  }
  // corner towers
  const tr = 36;
  const tH = fh + 22;
  for (const tx of [-hw - tr * 0.6, hw + tr * 0.6]) {
    roundTower(b, tx, 0, tr, tH, "cone", tr * 3.3 * e.height);
    for (let s = 0; s < storeys; s++)
      win(b, tx - 7, -fh + 12 + s * (fh / storeys), 14, fh / storeys - 28, true);
    flush(b);
  }
  // terrace
  add(b, path(rectD(-hw - 80, -6, hw * 2 + 160, 10), b.trim));
}

function drawVilla(b: B): void {
  const e = b.c.est;
  const hw = 160 * e.width;
  const fh = 58 * e.storeys * e.height;
  // side wings
  const ww = 70;
  const wh = fh * 0.62;
  for (const side of [-1, 1]) {
    const x0 = side < 0 ? -hw - ww : hw;
    add(b, path(rectD(x0, -wh, ww, wh), side < 0 === b.c.lightLeft ? b.wallLit : b.wall));
    win(b, x0 + ww * 0.35, -wh + 14, ww * 0.3, wh * 0.45);
    flush(b);
    hipRoof(b, x0, x0 + ww, -wh, 20, 14, 8);
  }
  // belvedere tower
  const tx = e.variant === 0 ? 0 : e.variant === 1 ? -hw * 0.55 : hw * 0.55;
  const tw = 64;
  const th = fh + 78;
  add(b, path(rectD(tx - tw / 2, -th, tw, th), b.wall));
  for (let i = 0; i < 3; i++)
    win(b, tx - tw / 2 + 8 + i * ((tw - 16) / 3) + 2, -th + 12, (tw - 16) / 3 - 4, 30, true);
  flush(b);
  hipRoof(b, tx - tw / 2, tx + tw / 2, -th, 24, tw / 2 - 2, 10);
  // main block
  add(b, path(rectD(-hw, -fh, hw * 2, fh), b.wall));
  add(b, path(rectD(-hw, -fh, hw * 2, 7), b.trim, op(0.8)));
  add(b, path(rectD(-hw, -fh / e.storeys - 3, hw * 2, 4), b.trim, op(0.7)));
  const bays = e.bays;
  const bw = (hw * 2) / bays;
  // loggia: central arcade on ground floor
  const arches = Math.min(5, bays - 2);
  const lx0 = -arches * bw * 0.5;
  const shutter = land(b.c, "#5d7356", 0);
  let shut = "";
  for (let s = 0; s < e.storeys; s++) {
    const y = -fh + 16 + s * (fh / e.storeys);
    const wh2 = fh / e.storeys - 32;
    for (let i = 0; i < bays; i++) {
      const x = -hw + i * bw;
      if (s === e.storeys - 1 && x + bw > lx0 + 1 && x < -lx0 - 1) continue;
      win(b, x + bw * 0.34, y, bw * 0.32, wh2);
      if (!b.c.sky.night)
        shut += rectD(x + bw * 0.22, y, bw * 0.11, wh2) + rectD(x + bw * 0.67, y, bw * 0.11, wh2);
    }
  }
  flush(b);
  add(b, path(shut, shutter, op(0.85)));
  const ay = -fh / e.storeys + 4;
  add(b, path(rectD(lx0, ay, -lx0 * 2, -ay), b.wallShade, op(0.6)));
  let arc = "";
  for (let i = 0; i < arches; i++)
    arc += archD(lx0 + i * bw + bw * 0.14, ay + 6, bw * 0.72, -ay - 6);
  add(b, path(arc, b.c.sky.litWindows > 0.3 ? b.glassLit : mix(b.glass, b.wallShade, 0.3)));
  // roof with deep eaves
  hipRoof(b, -hw, hw, -fh, 36, 60, 14);
  chimney(b, -hw * 0.35, -fh - 22, 11, 22);
  // terrace balustrade
  add(b, path(rectD(-hw - ww - 30, -14, (hw + ww + 30) * 2, 14), b.trim));
  let bal = "";
  for (let x = -hw - ww - 26; x < hw + ww + 26; x += 9) bal += rectD(x, -11, 4, 9);
  add(b, path(bal, b.wallShade, op(0.5)));
}

function drawManor(b: B): void {
  const e = b.c.est;
  const hw = 175 * e.width;
  const fh = 50 * e.storeys * e.height;
  const rh = 80 * e.height;
  // chimney stacks behind
  for (const cx of [-hw * 0.75, hw * 0.1, hw * 0.75]) {
    add(
      b,
      path(
        rectD(cx, -fh - rh - 34, 9, rh + 34) +
          rectD(cx + 12, -fh - rh - 34, 9, rh + 34) +
          rectD(cx - 2, -fh - rh - 40, 25, 7),
        b.wallShade,
      ),
    );
  }
  // roof: long ridge with gabled ends
  add(
    b,
    path(
      polyD([
        [-hw - 8, -fh],
        [-hw + rh * 0.6, -fh - rh],
        [hw - rh * 0.6, -fh - rh],
        [hw + 8, -fh],
      ]),
      b.roof,
    ),
  );
  add(b, path(rectD(-hw - 8, -fh - 3, hw * 2 + 16, 4), b.roofShade));
  // main range
  add(b, path(rectD(-hw, -fh, hw * 2, fh), b.wall));
  // front gables
  const n = e.variant + 2;
  const gw = 70;
  const gap = (hw * 2 - gw) / (n - 1 || 1);
  for (let i = 0; i < n; i++) {
    const gx = n === 1 ? 0 : -hw + gw / 2 + i * gap;
    const gh = fh + rh * 0.75;
    add(
      b,
      path(
        `M${f(gx - gw / 2)} 0V${f(-fh)}L${f(gx)} ${f(-gh)}L${f(gx + gw / 2)} ${f(-fh)}V0Z`,
        b.wall,
      ),
    );
    const side = b.c.lightLeft ? -1 : 1;
    add(b, path(rectD(side < 0 ? gx - gw / 2 : gx + gw / 2 - 5, -fh, 5, fh), b.wallLit, op(0.6)));
    add(
      b,
      path(
        `M${f(gx - gw / 2 - 5)} ${f(-fh + 2)}L${f(gx)} ${f(-gh - 6)}L${f(gx + gw / 2 + 5)} ${f(-fh + 2)}L${f(gx + gw / 2)} ${f(-fh + 2)}L${f(gx)} ${f(-gh + 2)}L${f(gx - gw / 2)} ${f(-fh + 2)}Z`,
        b.trim,
      ),
    );
    add(b, path(rectD(gx - 1.5, -gh - 18, 3, 14), b.trim));
    win(b, gx - 9, -fh - rh * 0.4, 18, 22, true);
  }
  flush(b);
  // mullioned windows
  const bays = e.bays;
  const bw = (hw * 2) / bays;
  let mull = "";
  for (let s = 0; s < e.storeys; s++) {
    const y = -fh + 12 + s * (fh / e.storeys);
    const wh = fh / e.storeys - 24;
    for (let i = 0; i < bays; i++) {
      const x = -hw + i * bw + bw * 0.18;
      const w = bw * 0.64;
      win(b, x, y, w, wh);
      mull +=
        rectD(x + w / 3 - 1, y, 2, wh) +
        rectD(x + (2 * w) / 3 - 1, y, 2, wh) +
        rectD(x, y + wh * 0.4, w, 2);
    }
  }
  flush(b);
  add(b, path(mull, b.trim, op(0.85)));
  // porch
  add(b, path(`M-22 0V-56L0 -78L22 -56V0Z`, b.trim));
  add(b, path(archD(-12, -48, 24, 48), b.glass));
  add(b, path(rectD(-hw - 10, -5, hw * 2 + 20, 6), b.wallShade, op(0.6)));
}

function drawTower(b: B): void {
  const e = b.c.est;
  const tw = 110 * e.width;
  const th = 330 * e.height;
  const side = e.variant === 1 ? 1 : -1;
  // annex house
  const ax0 = side < 0 ? tw * 0.3 : -tw * 0.3 - 150;
  add(b, path(rectD(ax0, -85, 150, 85), b.wall));
  add(
    b,
    path(
      polyD([
        [ax0 - 6, -85],
        [ax0 + 30, -130],
        [ax0 + 120, -130],
        [ax0 + 156, -85],
      ]),
      b.roof,
    ),
  );
  chimney(b, ax0 + 110, -120, 12, 24);
  for (let i = 0; i < 3; i++) win(b, ax0 + 22 + i * 44, -60, 16, 28, true);
  flush(b);
  // low wall
  add(
    b,
    path(
      crenelD(
        -tw * 0.5 - 150 * (side < 0 ? 1 : 0) - 30,
        tw * 0.5 + 150 * (side > 0 ? 1 : 0) + 30,
        -38,
        0,
        8,
        10,
      ),
      b.wall,
    ),
  );
  if (e.round) {
    roundTower(b, 0, 0, tw * 0.5, th, e.variant === 2 ? "cone" : "crenel", tw * 1.2);
  } else {
    squareTower(b, 0, 0, tw, th, e.variant === 2 ? "roof" : "crenel");
    // machicolations
    let m = "";
    for (let x = -tw * 0.55; x < tw * 0.55; x += tw / 9)
      m += `M${f(x)} ${f(-th)}h${f(tw / 14)}l${f(-tw / 56)} 12h${f(-tw / 28)}Z`;
    if (e.variant !== 2) add(b, path(m, b.wallShade, op(0.7)));
  }
  // stair turret
  const sx = side * tw * 0.45;
  roundTower(b, sx, -th * 0.25, tw * 0.16, th * 0.88, "cone", tw * 0.55);
  // windows
  for (let i = 0; i < 4; i++) {
    const y = -th + 40 + i * (th / 4.5);
    win(b, -8 + (i % 2 ? 14 : -14), y, i === 1 ? 18 : 9, i === 1 ? 34 : 24, true);
  }
  win(b, -12, -60, 24, 44, true);
  flush(b);
  const fy = -th - (e.round && e.variant === 2 ? tw * 1.2 : 20);
  add(b, path(rectD(-1.2, fy - 46, 2.4, 48), b.roofShade));
  add(b, path(`M1 ${f(fy - 46)}L32 ${f(fy - 40)}L1 ${f(fy - 32)}Z`, land(b.c, e.flag, 0)));
}

/** Building footprint half-width in local units, used for plateaus and gardens. */
const HALF_WIDTH: Record<Architecture, number> = {
  castle: 215,
  chateau: 200,
  villa: 245,
  manor: 190,
  tower: 150,
};

function drawBuilding(c: Ctx): string {
  const e = c.est;
  const rr = makeRng(`windows:${c.est.wall}:${c.sky.time}:${c.bx}`);
  const wallBase = mix(
    land(c, e.wall, 0.12),
    c.sky.light,
    c.sky.night ? 0.22 : c.sky.time === "dusk" ? 0.2 : 0.15,
  );
  const roofBase = mix(land(c, e.roof, 0.12), c.sky.light, c.sky.night ? 0.12 : 0);
  const wallLit = mix(wallBase, c.sky.light, c.sky.night ? 0.1 : 0.35);
  const wallShade = mix(wallBase, c.sky.ambient, 0.35);
  const roofLit = mix(roofBase, c.sky.light, 0.3);
  const roofShade = mix(roofBase, c.sky.ambient, 0.35);
  const b: B = {
    c,
    out: [],
    dark: "",
    lit: "",
    wall: wallBase,
    wallLit,
    wallShade,
    trim: mix(land(c, e.trim, 0.1), c.sky.light, c.sky.night ? 0.05 : 0.2),
    cylWall: cylGrad(c, wallLit, wallBase, wallShade),
    roof: roofBase,
    roofLit,
    roofShade,
    cylRoof: cylGrad(c, roofLit, roofBase, roofShade),
    glass: c.sky.night ? "#141b33" : mix("#2b3140", c.sky.ambient, 0.3),
    glassLit: c.sky.night ? "#ffd27a" : "#ffcf85",
    rr,
  };
  // plinth / foundation
  const hw = HALF_WIDTH[c.arch] * c.est.width;
  add(b, path(rectD(-hw * 0.94, -2, hw * 1.88, 14), mix(wallShade, "#3a3a3a", 0.2)));
  if (c.arch === "castle") drawCastle(b);
  else if (c.arch === "chateau") drawChateau(b);
  else if (c.arch === "villa") drawVilla(b);
  else if (c.arch === "manor") drawManor(b);
  else drawTower(b);
  flush(b);
  return b.out.join("");
}

function placeBuilding(c: Ctx, reflect = false): void {
  const body = drawBuilding(c);
  const t = `translate(${f(c.bx)} ${f(c.by)}) scale(${f(c.s * 100) === "0" ? 1 : Math.round(c.s * 1000) / 1000})`;
  if (c.sky.litWindows > 0.5) {
    const id = gradId(c);
    c.defs.push(
      `<radialGradient id="${id}"><stop offset="0" stop-color="#ffc46b" stop-opacity=".35"/><stop offset="1" stop-color="#ffc46b" stop-opacity="0"/></radialGradient>`,
    );
    c.body.push(
      `<ellipse cx="${f(c.bx)}" cy="${f(c.by - 80 * c.s)}" rx="${f(c.bw * 1.6)}" ry="${f(160 * c.s)}" fill="url(#${id})"/>`,
    );
  }
  c.body.push(`<g id="bld" transform="${t}">${body}</g>`);
  if (reflect) {
    c.body.push(
      `<use href="#bld" transform="matrix(1 0 0 -1 0 ${f(2 * c.by + 40 * c.s)})" opacity=".3"/>`,
    );
  }
  const formal = c.arch === "chateau" || c.arch === "villa" || c.arch === "manor";
  const open = c.terrain === "hills" || c.terrain === "vineyard" || c.terrain === "parkland";
  if (formal && open && (c.close || c.arch === "chateau")) {
    c.parterre = true;
    drawParterre(c);
  }
  if (c.arch === "castle" && open) drawMoat(c);
}

// ---------------------------------------------------------------------------------------------
// Gardens and water
// ---------------------------------------------------------------------------------------------

/** Map a ground-plane coordinate (u lateral -1..1, v depth 0 at the building .. 1 at the viewer). */
function ground(c: Ctx, u: number, v: number): Pt {
  const y = c.by + (H + 60 - c.by) * v ** 1.25;
  const half = c.bw * 1.1 + v * W * 0.7;
  return [c.bx + u * half, y];
}

function quad(c: Ctx, u0: number, u1: number, v0: number, v1: number): string {
  return polyD([ground(c, u0, v0), ground(c, u1, v0), ground(c, u1, v1), ground(c, u0, v1)]);
}

function drawParterre(c: Ctx): void {
  const gravel = land(c, "#d8c8a6", 0.05);
  const hedge = land(c, "#3f5e30", 0.05);
  const lawn = land(c, "#6f8f47", 0.05);
  c.body.push(path(quad(c, -0.75, 0.75, 0.01, 0.42), gravel));
  let beds = "";
  let lawns = "";
  const cols = 4;
  for (let i = 0; i < cols; i++) {
    const u0 = -0.7 + (1.4 * i) / cols + 0.03;
    const u1 = -0.7 + (1.4 * (i + 1)) / cols - 0.03;
    if (i === cols / 2 - 1) {
      beds += quad(c, u0, u1 - 0.05, 0.03, 0.18) + quad(c, u0, u1 - 0.05, 0.22, 0.4);
      lawns +=
        quad(c, u0 + 0.025, u1 - 0.075, 0.045, 0.165) +
        quad(c, u0 + 0.025, u1 - 0.075, 0.235, 0.385);
    } else if (i === cols / 2) {
      beds += quad(c, u0 + 0.05, u1, 0.03, 0.18) + quad(c, u0 + 0.05, u1, 0.22, 0.4);
      lawns +=
        quad(c, u0 + 0.075, u1 - 0.025, 0.045, 0.165) +
        quad(c, u0 + 0.075, u1 - 0.025, 0.235, 0.385);
    } else {
      beds += quad(c, u0, u1, 0.03, 0.18) + quad(c, u0, u1, 0.22, 0.4);
      lawns +=
        quad(c, u0 + 0.025, u1 - 0.025, 0.045, 0.165) +
        quad(c, u0 + 0.025, u1 - 0.025, 0.235, 0.385);
    }
  }
  c.body.push(path(beds, hedge));
  c.body.push(path(lawns, lawn));
  // topiary cones
  let cones = "";
  for (const v of [0.03, 0.2, 0.4]) {
    for (const u of [-0.72, -0.05, 0.05, 0.72]) {
      const [x, y] = ground(c, u, v);
      const h = 14 + v * 90;
      cones += `M${f(x)} ${f(y - h)}L${f(x + h * 0.22)} ${f(y)}H${f(x - h * 0.22)}Z`;
    }
  }
  c.body.push(path(cones, mix(hedge, "#10180c", 0.2)));
  drawFountain(c, ground(c, 0, 0.2), c.s * 1.3);
}

function drawFountain(c: Ctx, at: Pt, k: number): void {
  const [x, y] = at;
  const water = mix(c.sky.water, c.sky.light, 0.35);
  c.body.push(path(ellipseD(x, y, 46 * k, 11 * k), land(c, "#cdbd9c", 0.05)));
  c.body.push(path(ellipseD(x, y - 1, 40 * k, 8 * k), water));
  c.body.push(
    path(
      `M${f(x - 2 * k)} ${f(y - 2)}Q${f(x - 1)} ${f(y - 40 * k)} ${f(x)} ${f(y - 58 * k)}Q${f(x + 1)} ${f(y - 40 * k)} ${f(x + 2 * k)} ${f(y - 2)}Z` +
        `M${f(x)} ${f(y - 56 * k)}Q${f(x - 20 * k)} ${f(y - 48 * k)} ${f(x - 26 * k)} ${f(y - 4)}Q${f(x - 16 * k)} ${f(y - 40 * k)} ${f(x)} ${f(y - 52 * k)}Q${f(x + 16 * k)} ${f(y - 40 * k)} ${f(x + 26 * k)} ${f(y - 4)}Q${f(x + 20 * k)} ${f(y - 48 * k)} ${f(x)} ${f(y - 56 * k)}Z`,
      mix("#ffffff", c.sky.light, 0.3),
      op(0.55),
    ),
  );
}

function drawMoat(c: Ctx): void {
  const hw = c.bw * 1.15;
  const top = c.by + 6 * c.s;
  const d = `M${f(c.bx - hw)} ${f(top)}H${f(c.bx + hw)}Q${f(c.bx + hw + 40 * c.s)} ${f(top + 18 * c.s)} ${f(c.bx + hw)} ${f(top + 34 * c.s)}H${f(c.bx - hw)}Q${f(c.bx - hw - 40 * c.s)} ${f(top + 18 * c.s)} ${f(c.bx - hw)} ${f(top)}Z`;
  c.body.push(
    path(d, vGrad(c, mix(c.sky.water, c.sky.ambient, 0.3), mix(c.sky.water, c.sky.horizon, 0.4))),
  );
  c.body.push(path(rectD(c.bx - hw, top, hw * 2, 3 * c.s), c.sky.ambient, op(0.4)));
}

function drawRiver(
  c: Ctx,
  fromX: number,
  fromY: number,
  toX: number,
  w0: number,
  w1: number,
): void {
  const left: Pt[] = [];
  const right: Pt[] = [];
  const n = 24;
  const swing = c.r.range(120, 260) * (c.r.chance(0.5) ? 1 : -1);
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const y = fromY + (H + 20 - fromY) * t ** 1.4;
    const x = fromX + (toX - fromX) * t + Math.sin(t * Math.PI * 1.6) * swing * t;
    const w = w0 + (w1 - w0) * t ** 1.6;
    left.push([x - w, y]);
    right.push([x + w, y]);
  }
  const d = polyD([...left, ...right.reverse()]);
  c.body.push(
    path(
      d,
      vGrad(c, mix(c.sky.horizon, c.sky.water, 0.4), mix(c.sky.water, c.sky.top, 0.25), fromY, H),
    ),
  );
  c.body.push(
    path(d, "none", ` stroke="${land(c, "#c9b98f", 0.2)}" stroke-width="3" stroke-opacity=".5"`),
  );
}

// ---------------------------------------------------------------------------------------------
// Terrains
// ---------------------------------------------------------------------------------------------

function plateau(c: Ctx, extra = 1.15): { x: number; w: number; y: number } {
  return { x: c.bx, w: c.bw * extra, y: c.by };
}

function cypressRow(
  c: Ctx,
  pts: readonly Pt[],
  hFn: (p: Pt, i: number) => number,
  base: string,
  depth: number,
): void {
  let d = "";
  let lit = "";
  pts.forEach((p, i) => {
    const h = hFn(p, i);
    d += cypressD(p[0], p[1], h);
    lit += cypressLitD(p[0], p[1], h, c.lightLeft);
  });
  const col = land(c, base, depth);
  c.body.push(path(d, col));
  c.body.push(path(lit, mix(col, c.sky.light, c.sky.night ? 0.1 : 0.25)));
}

/** Patchwork of fields following a land layer's contour, with olive groves in some of them. */
function fields(
  c: Ctx,
  top: readonly Pt[],
  palette: readonly string[],
  depth: number,
  rows: number,
  rowH: number,
): void {
  const { r } = c;
  const cells: string[] = palette.map(() => "");
  const dots: string[] = [];
  const dotCol = land(c, "#56663a", depth);
  for (let j = 0; j < rows; j++) {
    const o0 = 8 + rowH * j * (1 + j * 0.35);
    const o1 = 8 + rowH * (j + 1) * (1 + (j + 1) * 0.35);
    const sz = (3 + (o0 / rowH) * 1.5) * (1 - depth * 0.5);
    let row = "";
    let xa = -20 + r.range(-100, 0);
    while (xa < W + 20) {
      const xb = xa + r.range(140, 340) * (1 + j * 0.3);
      const k = r.chance(0.18) ? palette.length : r.int(0, palette.length - 1);
      const xs = [
        xa,
        ...top.filter((p, i) => i % 2 === 0 && p[0] > xa && p[0] < xb).map((p) => p[0]),
        xb,
      ];
      const edge0 = xs.map((x) => [x, yAt(top, x) + o0] as Pt);
      const edge1 = xs.map((x) => [x + (o1 - o0) * 0.3, yAt(top, x) + o1] as Pt).reverse();
      if (k < palette.length) cells[k] += polyD([...edge0, ...edge1]);
      else {
        // olive grove: rows of small round trees (round-capped dots)
        for (let y = o0 + sz * 2; y < o1 - sz; y += sz * 4) {
          for (let x = xa + sz * 3; x < xb - sz * 3; x += sz * 5)
            row += `M${f(x + (y % 9))} ${f(yAt(top, x) + y)}h.1`;
        }
      }
      xa = xb;
    }
    dots.push(
      path(row, "none", ` stroke="${dotCol}" stroke-width="${f(sz * 2.3)}" stroke-linecap="round"`),
    );
  }
  palette.forEach((col, i) => c.body.push(path(cells[i] ?? "", land(c, col, depth), op(0.55))));
  c.body.push(...dots);
}

function hills(c: Ctx): void {
  const { r } = c;
  const far1 = ridge(r, c.by - 150 * c.s - 40, 50, { freq: 1.2 });
  layer(c, far1, "#8d9a78", 0.85);
  const far2 = ridge(r, c.by - 70 * c.s - 10, 45, { freq: 1.4 });
  layer(c, far2, "#96a064", 0.6);
  fields(c, far2, ["#b3a25e", "#7f9350"], 0.6, 2, 18);
  // a hill town or a cypress row on the distant ridge
  const row: Pt[] = [];
  const x0 = r.range(100, W - 500);
  for (let i = 0; i < 9; i++) row.push([x0 + i * 16, yAt(far2, x0 + i * 16) + 3]);
  cypressRow(c, row, () => 34, "#354a2a", 0.55);
  const mid = ridge(r, c.by + 10, 60, { plateau: plateau(c) });
  layer(c, mid, "#a5a55c", 0.3);
  fields(c, mid, ["#c4ad62", "#86974e", "#a9844f", "#b9b06a"], 0.3, 3, 26);
  // white road with a cypress avenue up to the building
  const side = c.bx > W / 2 ? -1 : 1;
  const road: Pt[] = [];
  const bend = r.range(0.3, 0.6);
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    road.push([c.bx + side * (c.bw * 0.5 + t * t * W * bend), c.by + 6 + t * (H - c.by) * 0.6]);
  }
  const roadCol = land(c, "#e0cfa6", 0.2);
  let rd = "";
  for (let i = 0; i < road.length - 1; i++) {
    const a = road[i] as Pt;
    const bb = road[i + 1] as Pt;
    const w0 = 2 + i * 2.4;
    const w1 = 2 + (i + 1) * 2.4;
    rd += polyD([
      [a[0] - w0, a[1]],
      [bb[0] - w1, bb[1]],
      [bb[0] + w1, bb[1]],
      [a[0] + w0, a[1]],
    ]);
  }
  c.body.push(path(rd, roadCol));
  const trees: Pt[] = road.slice(1, 9).map(([x, y], i) => [x + side * (8 + i * 4), y - 6] as Pt);
  const trees2: Pt[] = road.slice(1, 9).map(([x, y], i) => [x - side * (8 + i * 4), y + 6] as Pt);
  placeBuilding(c);
  cypressRow(
    c,
    [...trees, ...trees2].sort((a, b) => a[1] - b[1]),
    (p) => 30 + (p[1] - c.by) * 0.55,
    "#2f4626",
    0.15,
  );
  const front = ridge(r, H - 110, 60, { freq: 0.8 });
  layer(c, front, r.pick(["#b8a45e", "#8a9a4c", "#c2ad6a"]), 0.05);
  fields(c, front, ["#c9b36a", "#8fa052"], 0.05, 2, 40);
  // foreground cypress pair
  const fx = c.bx > W / 2 ? r.range(60, 260) : r.range(W - 260, W - 60);
  if (!c.terrace)
    cypressRow(
      c,
      [
        [fx, H + 20],
        [fx + 70, H + 30],
      ],
      (_, i) => (i === 0 ? 560 : 470),
      "#2a3f23",
      0,
    );
}

function coast(c: Ctx): void {
  const { r, sky } = c;
  const seaY = c.by - 50 - 90 * c.s;
  c.horizon = seaY;
  // the sea lies away from the building's side of the frame, towards the sun
  const dir = c.sunX > c.bx ? 1 : -1;
  // distant coastline receding along the horizon on the land side
  for (let k = 0; k < 2; k++) {
    const hx = c.bx + dir * (k === 0 ? -200 : 520) + r.range(-80, 80);
    const hw = k === 0 ? 700 : 260;
    const hh = k === 0 ? 70 : 34;
    const far: Pt[] = [];
    for (let x = hx - hw; x <= hx + hw; x += 25) {
      const t = (x - hx) / hw;
      far.push([x, seaY - hh * (1 - t * t) * (0.75 + 0.25 * Math.sin(x * 0.013 + k))]);
    }
    far.push([hx + hw, seaY + 1], [hx - hw, seaY + 1]);
    c.body.push(path(polyD(far), land(c, "#7c8a7a", k === 0 ? 0.8 : 0.95)));
  }
  // sea
  const seaTop = mix(sky.horizon, sky.water, 0.45);
  const seaBottom = mix(sky.water, "#17324a", sky.night ? 0.3 : 0.45);
  c.body.push(path(rectD(0, seaY, W, H - seaY), vGrad(c, seaTop, seaBottom, seaY, H)));
  let g = "";
  for (let i = 0; i < 44; i++) {
    const t = r.next();
    const y = seaY + 3 + (H - seaY) * t * t;
    const w = (8 + t * 140) * r.range(0.3, 1);
    g += rectD(c.sunX - w / 2 + r.range(-1, 1) * (16 + t * 170), y, w, 1.5 + t * 4);
  }
  c.body.push(path(g, mix(sky.sun, sky.glow, 0.3), op(sky.time === "midday" ? 0.35 : 0.55)));
  let waves = "";
  for (let i = 0; i < 34; i++) {
    const t = r.next();
    const y = seaY + 10 + (H - seaY) * t * t;
    waves += rectD(r.range(-50, W), y, 20 + t * 140, 1 + t * 2.5);
  }
  c.body.push(path(waves, mix(sky.horizon, "#ffffff", 0.4), op(0.22)));
  if (!sky.night && r.chance(0.6)) {
    const sx = c.bx + dir * r.range(300, 700);
    const sy = seaY + r.range(8, 30);
    const k = 0.6 + (sy - seaY) / 40;
    c.body.push(
      path(
        `M${f(sx)} ${f(sy - 34 * k)}L${f(sx + 14 * k)} ${f(sy - 4 * k)}H${f(sx)}Z` +
          `M${f(sx - 2 * k)} ${f(sy - 30 * k)}L${f(sx - 13 * k)} ${f(sy - 4 * k)}H${f(sx - 2 * k)}Z`,
        land(c, "#f5f1e6", 0.4),
      ),
    );
  }
  // headland seen across the water: frontal cliff face under the building
  const cliffH = 60 + 120 * c.s;
  const yw = c.by + cliffH;
  const tip = c.bx + dir * (c.bw * 1.25 + 50 + r.range(0, 60));
  const outer = dir > 0 ? -40 : W + 40;
  const top: Pt[] = [];
  const n = 24;
  for (let i = 0; i <= n; i++) {
    const t = i / n;
    const x = outer + (tip - outer) * t;
    const d = Math.abs(x - c.bx);
    const flat = smooth(c.bw * 1.05, c.bw * 1.7, d);
    const hill = (1 - t) * r.range(60, 110) * flat;
    const y = c.by - hill + flat * 4 * Math.sin(i * 1.7) + (t > 0.93 ? (t - 0.93) * 500 : 0);
    top.push([x, y]);
  }
  const rock = land(c, r.pick(["#b29a7c", "#a8927a", "#c0a783"]), 0.15);
  const rockLit = mix(rock, sky.light, 0.35);
  const rockDark = mix(rock, sky.ambient, 0.5);
  const tipFoot: Pt = [tip + dir * 30, yw];
  const foot: Pt[] = [];
  for (let i = 0; i <= 10; i++) {
    const t = i / 10;
    foot.push([tip + dir * 30 + (outer - tip) * t, yw + r.range(-4, 4) + t * 10]);
  }
  c.body.push(path(polyD([...top, tipFoot, ...foot]), vGrad(c, rockLit, rockDark)));
  // vertical fissures and a shaded end
  let fiss = "";
  for (let i = 1; i < n - 1; i += 1) {
    if (r.chance(0.45)) continue;
    const [x, y] = top[i] as Pt;
    const w = r.range(2, 6);
    fiss += polyD([
      [x, y + 12],
      [x + w, y + 12],
      [x + w * 0.3 + r.range(-10, 10), yw],
      [x - w * 0.5, yw],
    ]);
  }
  const endT = top[n - 3] as Pt;
  fiss += polyD([endT, top[n] as Pt, tipFoot, [endT[0] - dir * 10, yw]]);
  c.body.push(path(fiss, rockDark, op(0.45)));
  // grass cap
  const cap = top.map(([x, y], i) => [x, y + 14 + 5 * Math.sin(i * 2.3)] as Pt).reverse();
  c.body.push(
    path(polyD([...top, ...cap]), vGrad(c, land(c, "#93a05e", 0.15), land(c, "#6b7a40", 0.2))),
  );
  // foam at the cliff foot and sea stacks off the tip
  c.body.push(
    path(
      polyD([
        ...foot.map(([x, y]) => [x, y - 3] as Pt),
        ...foot.map(([x, y]) => [x, y + 5] as Pt).reverse(),
      ]),
      "#ffffff",
      op(0.45),
    ),
  );
  let stacks = "";
  for (let i = 0; i < r.int(1, 3); i++) {
    const sx = tip + dir * r.range(60, 260);
    const sy = yw + r.range(0, 40);
    const sw = r.range(14, 30) * (0.7 + c.s * 0.5);
    const sh = sw * r.range(1.4, 3);
    stacks += polyD([
      [sx - sw, sy],
      [sx - sw * 0.7, sy - sh],
      [sx - sw * 0.1, sy - sh * 1.08],
      [sx + sw * 0.6, sy - sh * 0.9],
      [sx + sw, sy],
    ]);
  }
  c.body.push(path(stacks, cylGrad(c, rockLit, rock, rockDark)));
  // umbrella pines beside (and just behind) the building
  const t: Trees = { dark: "", lit: "" };
  for (let i = 0; i < 3; i++) {
    const x = c.bx - dir * (c.bw * (0.95 + i * 0.5) + r.range(10, 60));
    umbrellaPineD(r, x, yAt(top, x) + 6, 140 * c.s * r.range(0.85, 1.15), c.lightLeft, t);
  }
  pushTrees(c, t, "#3a4f2c", 0.15);
  placeBuilding(c);
  // foreground shore framing the view on the land side
  const fx0 = dir > 0 ? -40 : W + 40;
  const fr: Pt[] = [];
  for (let i = 0; i <= 12; i++) {
    const t2 = i / 12;
    fr.push([
      fx0 + dir * (t2 * r.range(420, 520)),
      H - 150 + t2 * t2 * 200 + r.range(-8, 8) - (1 - t2) * 60,
    ]);
  }
  fr.push([fx0 + dir * 560, H + 10], [fx0, H + 10]);
  c.body.push(path(polyD(fr), vGrad(c, land(c, "#6f7448", 0.02), land(c, "#3f4630", 0))));
  const t2: Trees = { dark: "", lit: "" };
  const fx = dir > 0 ? r.range(40, 140) : r.range(W - 140, W - 40);
  umbrellaPineD(r, fx, H - 90, 340, c.lightLeft, t2);
  pushTrees(c, t2, "#33472a", 0.02);
}

function lake(c: Ctx): void {
  const { r, sky } = c;
  const lakeY = c.by - 60 - 70 * c.s;
  c.horizon = lakeY;
  const mts = mountainRidge(r, lakeY, r.range(180, 300));
  const mcol = land(c, "#7e8aa0", 0.7);
  c.body.push(path(landD(mts, lakeY + 1), mcol));
  const hillsBack = ridge(r, lakeY - 20, 25, { freq: 1.6 });
  c.body.push(path(landD(hillsBack, lakeY + 1), land(c, "#5d7048", 0.55)));
  // lake
  c.body.push(
    path(
      rectD(0, lakeY, W, H - lakeY),
      vGrad(c, mix(sky.horizon, sky.water, 0.3), mix(sky.water, sky.top, 0.4), lakeY, H),
    ),
  );
  // reflections of the far shore
  const refl = mts.map(([x, y]) => [x, 2 * lakeY - y] as Pt);
  c.body.push(path(landD(refl, lakeY), mcol, op(0.25)));
  const hb = hillsBack.map(([x, y]) => [x, 2 * lakeY - y] as Pt);
  c.body.push(
    path(polyD([...hb, [W + 20, lakeY], [-20, lakeY]]), land(c, "#5d7048", 0.55), op(0.4)),
  );
  // villages on far shore
  let vil = "";
  for (let i = 0; i < 10; i++) {
    const x = r.range(40, W - 40);
    const y = yAt(hillsBack, x) + r.range(4, 14);
    vil += rectD(x, y - 5, r.range(5, 10), 5);
  }
  c.body.push(path(vil, sky.night ? "#ffd27a" : land(c, "#efe6d4", 0.4), op(0.8)));
  // promontory
  const side = c.bx >= W / 2 ? 1 : -1;
  const shore = c.by + 18 * c.s;
  const tip = c.bx - side * (c.bw * 1.5 + 60);
  const pts: Pt[] = [];
  for (let i = 0; i <= 12; i++) {
    const t = i / 12;
    const x = tip + (side > 0 ? W + 40 - tip : -40 - tip) * t;
    const y = c.by - 6 * Math.sin(t * Math.PI) + r.range(-3, 3) - (t > 0.6 ? (t - 0.6) * 200 : 0);
    pts.push([x, y]);
  }
  const prom: Pt[] = [
    ...pts.map(([x, y]) => [x, Math.min(y, c.by)] as Pt),
    [side > 0 ? W + 40 : -40, shore],
    [tip - side * 10, shore],
  ];
  c.body.push(path(polyD(prom), vGrad(c, land(c, "#7a8f52", 0.2), land(c, "#4f6236", 0.2))));
  placeBuilding(c, true);
  // ripples
  let rip = "";
  for (let i = 0; i < 36; i++) {
    const t = r.next();
    rip += rectD(r.range(0, W), lakeY + 6 + (H - lakeY) * t * t, 30 + t * 160, 1 + t * 2);
  }
  c.body.push(path(rip, mix(sky.horizon, "#ffffff", 0.3), op(0.22)));
  // trees on promontory
  const t: Trees = { dark: "", lit: "" };
  for (let i = 0; i < 4; i++) {
    const x = c.bx + side * (c.bw * 1.1 + i * 70 + r.range(0, 30));
    oakD(r, x, c.by + 2, 60 * c.s * r.range(0.8, 1.2), c.lightLeft, t);
  }
  pushTrees(c, t, "#3f5a30", 0.2);
  // foreground shore with trees
  const fore = ridge(r, H - 60, 30, { freq: 0.7 });
  layer(c, fore, "#4d6333", 0);
  let reeds = "";
  for (let i = 0; i < 60; i++) {
    const x = r.range(0, W);
    const y = yAt(fore, x) + 4;
    const h = r.range(30, 80);
    reeds += `M${f(x)} ${f(y)}L${f(x + r.range(-8, 8))} ${f(y - h)}L${f(x + 3)} ${f(y)}Z`;
  }
  c.body.push(path(reeds, land(c, "#5b6a36", 0)));
  const t2: Trees = { dark: "", lit: "" };
  const fx = side > 0 ? r.range(60, 220) : r.range(W - 220, W - 60);
  oakD(r, fx, H + 40, 320, c.lightLeft, t2);
  pushTrees(c, t2, "#2f4526", 0);
}

function vineyard(c: Ctx): void {
  const { r } = c;
  const far = ridge(r, c.by - 120 * c.s - 30, 50, { freq: 1.1 });
  layer(c, far, "#8f9a7a", 0.85);
  const far2 = ridge(r, c.by - 50 * c.s, 40, { freq: 1.5 });
  layer(c, far2, "#8c9a5c", 0.6);
  fields(c, far2, ["#9aa35a", "#7d9150", "#b4a767"], 0.6, 2, 16);
  // vine rows following the contour of the estate's hill
  const mid = ridge(r, c.by + 6, 55, { plateau: plateau(c) });
  layer(c, mid, "#a4a35e", 0.3);
  let rowsD = "";
  for (let k = 1; k < 22; k++) {
    const o = 5 + k * 5 * (1 + k * 0.09);
    const pts = mid.filter((_, i) => i % 2 === 0).map(([x, y]) => [x, y + o] as Pt);
    rowsD += "M" + pts.map(([x, y]) => `${f(x)} ${f(y)}`).join("L");
  }
  c.body.push(
    path(
      rowsD,
      "none",
      ` stroke="${land(c, "#4f6a2a", 0.3)}" stroke-width="3" stroke-opacity=".6"`,
    ),
  );
  placeBuilding(c);
  // cypresses beside the building
  const side = r.chance(0.5) ? 1 : -1;
  const cx = c.bx + side * (c.bw + 30);
  cypressRow(
    c,
    [
      [cx, c.by + 4],
      [cx + side * 28, c.by + 6],
      [cx + side * 56, c.by + 8],
    ],
    () => 130 * c.s,
    "#2f4626",
    0.25,
  );
  // foreground slope with rows converging to a vanishing point
  const front = ridge(r, c.by + 120 + 60 * (1 - c.s), 40, { freq: 0.6 });
  const fid = gradId(c);
  c.defs.push(`<clipPath id="${fid}"><path d="${landD(front)}"/></clipPath>`);
  const earth = land(c, r.pick(["#a7805a", "#b08f62", "#9a7552"]), 0.05);
  c.body.push(
    path(landD(front), vGrad(c, mix(earth, c.sky.light, 0.15), mix(earth, "#3c2c1c", 0.3))),
  );
  const vx = c.bx + r.range(-300, 300);
  const vy = Math.min(...front.map((p) => p[1])) - 140;
  let rows = "";
  let leaves = "";
  const n = 26;
  for (let i = 0; i <= n; i++) {
    const bxp = -W * 0.8 + (W * 2.6 * i) / n;
    const spread = 6 + Math.abs(bxp - vx) * 0.012;
    rows += `M${f(vx)} ${f(vy)}L${f(bxp - spread * 2.2)} ${f(H + 20)}H${f(bxp + spread * 2.2)}Z`;
    leaves += `M${f(vx)} ${f(vy)}L${f(bxp - spread * 2.2 + 10)} ${f(H + 20)}H${f(bxp - spread * 0.6)}Z`;
  }
  const vine = land(c, r.pick(["#4c6a2c", "#56722f", "#60782f"]), 0.05);
  c.body.push(
    `<g clip-path="url(#${fid})">${path(rows, vine)}${path(leaves, mix(vine, c.sky.light, 0.3), op(0.6))}</g>`,
  );
  // cypresses at the end of the rows
  if (r.chance(0.7)) {
    const fx = side > 0 ? r.range(60, 240) : r.range(W - 240, W - 60);
    cypressRow(
      c,
      [
        [fx, H + 20],
        [fx + 64, H + 30],
      ],
      (_, i) => (i === 0 ? 520 : 430),
      "#2a3f23",
      0,
    );
  }
}

function mountain(c: Ctx): void {
  const { r, sky } = c;
  const base = c.by - 60 * c.s;
  const peaks = mountainRidge(r, base, r.range(380, 520));
  const clipId = gradId(c);
  c.defs.push(`<clipPath id="${clipId}"><path d="${landD(peaks)}"/></clipPath>`);
  const rock = land(c, "#8a8c98", 0.55);
  c.body.push(path(landD(peaks), vGrad(c, rock, land(c, "#6f7a86", 0.6))));
  // shaded facets and snow
  let shade = "";
  const dir = c.lightLeft ? 1 : -1;
  for (let i = 1; i < peaks.length - 1; i++) {
    const p = peaks[i] as Pt;
    const prev = peaks[i - 1] as Pt;
    const nx = peaks[i + 1] as Pt;
    if (p[1] < prev[1] && p[1] < nx[1]) {
      shade += polyD([p, [p[0] + dir * 30, p[1] + 500], [p[0] + dir * 420, p[1] + 500]]);
    }
  }
  const ys = peaks.map((p) => p[1]);
  const minY = Math.min(...ys);
  const snowLine = minY + (base - minY) * r.range(0.35, 0.5);
  const snowBottom: Pt[] = [];
  peaks.forEach(([x, y], i) => {
    const j = (i % 2 ? 1 : -1) * r.range(5, 30);
    snowBottom.push([x, y < snowLine ? snowLine + j + (snowLine - y) * 0.25 : y]);
  });
  const snowD = polyD([...peaks, ...snowBottom.reverse()]);
  const snow = mix(land(c, "#f3f5f8", 0.3), sky.light, 0.3);
  c.body.push(
    `<g clip-path="url(#${clipId})">${path(snowD, snow)}${path(shade, sky.ambient, op(0.35))}</g>`,
  );
  const range2 = mountainRidge(r, c.by - 10, r.range(120, 200), {
    x: c.bx,
    w: c.bw * 1.2,
    y: c.by,
  });
  layer(c, range2, "#5a6e4a", 0.3);
  // forest on the slope
  let pines = "";
  for (let i = 0; i < 40; i++) {
    const x = r.range(-20, W + 20);
    if (Math.abs(x - c.bx) < c.bw * 1.2) continue;
    const y = yAt(range2, x) + r.range(10, 90);
    pines += pineD(x, y, r.range(26, 44));
  }
  c.body.push(path(pines, land(c, "#2e4532", 0.3)));
  // dense forest with a spiky top edge on the lower slopes
  const ph = r.range(0, TAU);
  let forest = "M-20 " + f(c.by + 300);
  for (let x = -20, k = 0; x < W + 30; x += 8, k++) {
    const near = 1 - smooth(c.bw * 0.9, c.bw * 2.4, Math.abs(x - c.bx));
    const y = yAt(range2, x) + 70 + 35 * Math.sin(x * 0.006 + ph) + near * 160;
    forest += `L${f(x)} ${f(k % 2 ? y - r.range(12, 26) : y)}`;
  }
  forest += `L${W + 30} ${f(c.by + 300)}Z`;
  c.body.push(path(forest, land(c, "#29402d", 0.22)));
  placeBuilding(c);
  const meadow = ridge(r, c.by + 160 + 40 * c.s, 40, { freq: 0.9 });
  layer(c, meadow, "#7f9a4e", 0.05);
  // mountain stream winding through the meadow
  if (r.chance(0.5)) {
    const sx = c.bx + (c.bx > W / 2 ? -1 : 1) * (c.bw * 1.2 + r.range(40, 200));
    drawRiver(c, sx, yAt(meadow, sx) + 4, sx + (c.bx > W / 2 ? -1 : 1) * r.range(0, 200), 3, 70);
  }
  // foreground pines framing the view
  let fp = "";
  const side = c.bx > W / 2 ? -1 : 1;
  const fx = side < 0 ? r.range(40, 200) : r.range(W - 200, W - 40);
  fp += pineD(fx, H + 20, 520) + pineD(fx + side * -110, H + 40, 400);
  for (let i = 0; i < 8; i++) {
    const x = r.range(0, W);
    fp += pineD(x, yAt(meadow, x) + 20, r.range(70, 110));
  }
  c.body.push(path(fp, land(c, "#243a28", 0)));
}

function parkland(c: Ctx): void {
  const { r, sky } = c;
  const far = ridge(r, c.by - 60 * c.s - 10, 25, { freq: 1.2 });
  layer(c, far, "#6e8656", 0.75);
  // woodland belt on the horizon
  let tl = `M-20 ${f(yAt(far, 0) + 30)}`;
  for (let x = -20; x < W + 20;) {
    const w = r.range(24, 60);
    const y = yAt(far, x + w) + 4;
    tl += `Q${f(x + w / 2)} ${f(y - r.range(14, 40))} ${f(x + w)} ${f(y)}`;
    x += w;
  }
  tl += `V${f(yAt(far, W) + 40)}H-20Z`;
  c.body.push(path(tl, land(c, "#4b653a", 0.65)));
  const lawn = ridge(r, c.by + 8, 30, { plateau: plateau(c), freq: 0.8 });
  layer(c, lawn, "#7fa050", 0.2);
  // clumps of trees in the middle distance
  const t: Trees = { dark: "", lit: "" };
  for (let i = 0; i < 6; i++) {
    const cx = r.range(0, W);
    if (Math.abs(cx - c.bx) < c.bw * 1.3) continue;
    const n = r.int(2, 3);
    for (let k = 0; k < n; k++) {
      const x = cx + r.range(-70, 70);
      oakD(r, x, yAt(lawn, x) + r.range(6, 30), r.range(36, 60), c.lightLeft, t);
    }
  }
  pushTrees(c, t, "#45613a", 0.3);
  placeBuilding(c);
  const lawn2 = ridge(r, c.by + (H - c.by) * 0.45, 30, { freq: 0.6 });
  const l2 = lawn2.map(([x, y]) => [x, Math.max(y, c.by + 30)] as Pt);
  layer(c, l2, "#87a857", 0.08);
  // serpentine lake in front of the house
  const lakeSide = c.bx > W / 2 ? -1 : 1;
  const water = r.next();
  if (!c.parterre && water < 0.45) {
    const y0 = c.by + 40 + 50 * c.s;
    const top: Pt[] = [];
    const bot: Pt[] = [];
    const inner = c.bx + lakeSide * r.range(-120, 60);
    const outer = lakeSide > 0 ? W + 40 : -40;
    for (let i = 0; i <= 20; i++) {
      const t2 = i / 20;
      const x = inner + (outer - inner) * t2;
      const y = y0 + 20 * Math.sin(t2 * 4 + 1) + t2 * 40;
      const th = (20 + 80 * t2 ** 1.3) * Math.sin(Math.min(1, t2 * 3) * Math.PI * 0.5);
      top.push([x, y - th * 0.35]);
      bot.push([x, y + th]);
    }
    const d = polyD([...top, ...bot.reverse()]);
    c.body.push(path(d, vGrad(c, mix(sky.water, sky.top, 0.2), mix(sky.horizon, sky.water, 0.3))));
    c.body.push(
      path(
        polyD([...top, ...top.map(([x, y]) => [x, y + 3] as Pt).reverse()]),
        land(c, "#3f5a32", 0.15),
        op(0.7),
      ),
    );
    let rip = "";
    for (let i = 0; i < 12; i++) {
      const p = top[r.int(2, 18)] as Pt;
      rip += rectD(p[0] + r.range(-30, 30), p[1] + r.range(6, 24), r.range(20, 70), 1.5);
    }
    c.body.push(path(rip, mix(sky.horizon, "#ffffff", 0.4), op(0.35)));
  } else if (!c.parterre && water < 0.7) {
    // a river winding out of the park towards the viewer
    const sx = c.bx + lakeSide * (c.bw * 1.3 + r.range(20, 160));
    drawRiver(c, sx, c.by + 24, sx + lakeSide * r.range(100, 400), 4, 110);
  } else if (!c.parterre) {
    // gravel drive sweeping up to the house
    const sw = lakeSide * r.range(150, 350);
    c.body.push(
      path(
        `M${f(c.bx - 8)} ${f(c.by + 8)}Q${f(c.bx + sw)} ${f(c.by + 160)} ${f(c.bx + sw * 0.4 - 40)} ${f(H + 20)}H${f(c.bx + sw * 0.4 + 60)}Q${f(c.bx + sw + 24)} ${f(c.by + 160)} ${f(c.bx + 8)} ${f(c.by + 8)}Z`,
        land(c, "#d8c9a4", 0.1),
      ),
    );
  }
  const t3: Trees = { dark: "", lit: "" };
  for (let i = 0; i < 3; i++) {
    const x = r.range(0, W);
    if (Math.abs(x - c.bx) < c.bw * 1.1) continue;
    oakD(r, x, yAt(l2, x) + r.range(20, 60), r.range(80, 120), c.lightLeft, t3);
  }
  pushTrees(c, t3, "#3f5a32", 0.1);
  const fore = ridge(r, H - 60, 25, { freq: 0.7 });
  layer(c, fore, "#6f9446", 0.02);
  // specimen oak framing the view
  const t2: Trees = { dark: "", lit: "" };
  const fx = c.bx > W / 2 ? r.range(80, 260) : r.range(W - 260, W - 80);
  oakD(r, fx, H + 20, r.range(300, 380), c.lightLeft, t2);
  pushTrees(c, t2, "#3c5630", 0.02);
}

/** A stone balustrade with an urn across the foreground: the view from a terrace. */
function drawTerrace(c: Ctx): void {
  const { r, sky } = c;
  const stone = mix(land(c, "#e2d5bb", 0), sky.light, sky.night ? 0.08 : 0.2);
  const shade = mix(stone, sky.ambient, 0.45);
  const left = c.bx > W / 2;
  const x0 = left ? -20 : W * r.range(0.3, 0.45);
  const x1 = left ? W * r.range(0.55, 0.7) : W + 20;
  const y = H - r.range(200, 240);
  const railH = 30;
  const balH = 110;
  // shadowed body behind the balusters
  c.body.push(path(rectD(x0, y + railH, x1 - x0, H - y), mix(shade, "#1b1e26", 0.35)));
  let bal = "";
  for (let x = x0 + 16; x < x1 - 26; x += 40) {
    const t = y + railH;
    const k = 1.35;
    bal += `M${f(x + 5 * k)} ${f(t)}H${f(x + 17 * k)}Q${f(x + 10 * k)} ${f(t + balH * 0.2)} ${f(x + 20 * k)} ${f(t + balH * 0.6)}Q${f(x + 22 * k)} ${f(t + balH * 0.85)} ${f(x + 17 * k)} ${f(t + balH)}H${f(x + 5 * k)}Q${f(x)} ${f(t + balH * 0.85)} ${f(x + 2 * k)} ${f(t + balH * 0.6)}Q${f(x + 12 * k)} ${f(t + balH * 0.2)} ${f(x + 5 * k)} ${f(t)}Z`;
  }
  c.body.push(path(bal, cylGrad(c, stone, mix(stone, shade, 0.4), shade)));
  // coping and plinth
  c.body.push(
    path(
      rectD(x0 - 6, y, x1 - x0 + 12, railH) + rectD(x0 - 6, y + railH + balH, x1 - x0 + 12, H - y),
      stone,
    ),
  );
  c.body.push(
    path(
      rectD(x0 - 6, y + railH - 5, x1 - x0 + 12, 5) +
        rectD(x0 - 6, y + railH + balH + 10, x1 - x0 + 12, H),
      shade,
      op(0.7),
    ),
  );
  // pedestal with an urn at the open end
  const px = left ? x1 - 10 : x0 + 10;
  c.body.push(path(rectD(px - 40, y - 30, 80, H - y + 30), stone));
  c.body.push(path(rectD(left ? px + 18 : px - 40, y - 30, 22, H - y + 30), shade, op(0.6)));
  c.body.push(path(rectD(px - 46, y - 40, 92, 12), stone));
  const uy = y - 40;
  c.body.push(
    path(
      `M${f(px - 12)} ${f(uy)}L${f(px - 8)} ${f(uy - 14)}Q${f(px - 38)} ${f(uy - 30)} ${f(px - 34)} ${f(uy - 56)}H${f(px + 34)}Q${f(px + 38)} ${f(uy - 30)} ${f(px + 8)} ${f(uy - 14)}L${f(px + 12)} ${f(uy)}Z`,
      cylGrad(c, stone, mix(stone, shade, 0.3), shade),
    ),
  );
  // flowering plant in the urn
  const leaf = land(c, "#4a6a34", 0);
  let plant = "";
  for (let i = 0; i < 7; i++)
    plant += ellipseD(
      px + r.range(-40, 40),
      uy - 62 - r.range(0, 40),
      r.range(14, 24),
      r.range(10, 16),
    );
  c.body.push(path(plant, leaf));
  let flowers = "";
  for (let i = 0; i < 14; i++)
    flowers += `M${f(px + r.range(-44, 44))} ${f(uy - 60 - r.range(0, 50))}h.1`;
  const bloom = land(c, r.pick(["#e8a0a8", "#f0e6f0", "#d86a6a", "#f2c46a"]), 0);
  c.body.push(path(flowers, "none", ` stroke="${bloom}" stroke-width="9" stroke-linecap="round"`));
}

// ---------------------------------------------------------------------------------------------
// Render
// ---------------------------------------------------------------------------------------------

/** Same scene in, byte-identical SVG out. */
export function renderEstateSvg(scene: EstateScene): string {
  const est = makeEstate(scene.seed, scene.architecture);
  const index = Number.isFinite(scene.index) ? Math.max(0, Math.floor(scene.index)) : 0;
  const r = makeRng(`view:${scene.seed}:${index}`);
  const time = est.todOrder[(index + Math.floor(index / 6) * 3) % 6] as TimeOfDay;
  const sky = SKIES[time];
  const base = VIEWS[(index + est.viewShift) % VIEWS.length] as View;
  const mirror = index >= 6 && index % 2 === 0;
  const bxFrac = mirror ? 1 - base.bx : base.bx;
  const s = base.scale * est.size * (scene.architecture === "tower" ? 0.9 : 1);
  const bx = bxFrac * W;
  const by = base.gy * H;
  const sunSide = bxFrac > 0.55 ? -1 : bxFrac < 0.45 ? 1 : r.chance(0.5) ? 1 : -1;
  const sunX = W / 2 + sunSide * W * r.range(0.14, 0.36);
  const horizon = by - 40;
  const sunYpx = horizon - sky.sunY * (horizon - 80);
  const c: Ctx = {
    r,
    sky,
    est,
    terrain: scene.terrain,
    arch: scene.architecture,
    defs: [],
    body: [],
    bx,
    by,
    s,
    bw: HALF_WIDTH[scene.architecture] * est.width * s,
    sunX,
    sunYpx,
    lightLeft: sunX < bx,
    horizon,
    close: base.close,
    terrace: base.terrace === true,
    parterre: false,
    ids: 0,
  };
  drawSky(c);
  drawClouds(c);
  if (scene.terrain === "hills") hills(c);
  else if (scene.terrain === "coast") coast(c);
  else if (scene.terrain === "lake") lake(c);
  else if (scene.terrain === "vineyard") vineyard(c);
  else if (scene.terrain === "mountain") mountain(c);
  else parkland(c);
  if (c.terrace) drawTerrace(c);
  // soft light wash and vignette
  const vid = gradId(c);
  c.defs.push(
    `<radialGradient id="${vid}" cx=".5" cy=".45" r=".75"><stop offset=".55" stop-color="${sky.ambient}" stop-opacity="0"/><stop offset="1" stop-color="${sky.ambient}" stop-opacity="${sky.night ? 0.55 : 0.35}"/></radialGradient>`,
  );
  c.body.push(`<rect width="${W}" height="${H}" fill="url(#${vid})"/>`);
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}">` +
    `<defs>${c.defs.join("")}</defs>${c.body.join("")}</svg>`
  );
}
