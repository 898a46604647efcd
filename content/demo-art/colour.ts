/** Small numeric and colour helpers shared by the image generators. */

export const clamp = (v: number, lo = 0, hi = 1): number => Math.min(hi, Math.max(lo, v));

/** Hermite interpolation between two edges, 0 below e0 and 1 above e1. */
export const smoothstep = (e0: number, e1: number, x: number): number => {
  const t = clamp((x - e0) / (e1 - e0));
  return t * t * (3 - 2 * t);
};

export function rgb(c: string): [number, number, number] {
  const n = parseInt(c.slice(1), 16);
  return [(n >> 16) & 255, (n >> 8) & 255, n & 255];
}

/** The colour `t` of the way from `a` to `b` (hex in, hex out). */
export function mix(a: string, b: string, t: number): string {
  const x = rgb(a);
  const y = rgb(b);
  const k = clamp(t);
  const out = x.map((v, i) => Math.round(v + ((y[i] ?? 0) - v) * k));
  return "#" + out.map((v) => v.toString(16).padStart(2, "0")).join("");
}
