/** Burgundy marks destructive actions (brand.md); the button variants have no such tone. */
const DESTRUCTIVE_BASE =
  "inline-flex items-center justify-center gap-2 rounded-sm font-medium tracking-wide transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-gold disabled:pointer-events-none disabled:opacity-60";
export const DESTRUCTIVE_SOFT = `${DESTRUCTIVE_BASE} min-h-9 px-3 py-1.5 text-sm text-burgundy hover:bg-burgundy/5`;
export const DESTRUCTIVE_SOLID = `${DESTRUCTIVE_BASE} min-h-11 px-5 py-2 text-sm bg-burgundy text-ivory hover:bg-burgundy/90`;

/** A card of the dashboard: paper on ivory, gold hairline. */
export const CARD = "border-gold/30 bg-paper shadow-card rounded-sm border";
