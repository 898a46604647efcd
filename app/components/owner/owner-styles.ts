/** A card of the dashboard: paper on ivory, gold hairline. */
export const CARD = "border-gold/30 bg-paper shadow-card rounded-sm border";
