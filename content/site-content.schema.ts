import { z } from "zod";

/** A text in the four interface languages. */
export const LocalizedSchema = z.strictObject({
  en: z.string().trim().min(1),
  fr: z.string().trim().min(1),
  it: z.string().trim().min(1),
  zh: z.string().trim().min(1),
});
export type Localized = z.infer<typeof LocalizedSchema>;

const CardSchema = z.strictObject({
  /** Stable key, kebab-case; also picks the card's icon. */
  key: z.string().regex(/^[a-z0-9-]+$/),
  title: LocalizedSchema,
  description: LocalizedSchema,
});

/** Home page sections. */
export const HomeContentSchema = z.strictObject({
  hero: z.strictObject({ title: LocalizedSchema, subtitle: LocalizedSchema }),
  featured: z.strictObject({ title: LocalizedSchema, intro: LocalizedSchema }),
  tokenUtility: z.strictObject({
    title: LocalizedSchema,
    intro: LocalizedSchema,
    cards: z.array(CardSchema).length(4),
  }),
  memberBenefits: z.strictObject({
    title: LocalizedSchema,
    intro: LocalizedSchema,
    cards: z.array(CardSchema).length(8),
  }),
});

export const TeamContentSchema = z.strictObject({
  members: z
    .array(
      z.strictObject({
        key: z.string().regex(/^[a-z0-9-]+$/),
        name: z.string().trim().min(2),
        title: LocalizedSchema,
        description: LocalizedSchema,
        linkedIn: z.url(),
        twitter: z.url().optional(),
        /** Inputs of the generated portrait. */
        portrait: z.strictObject({
          seed: z.string().min(1),
          skinTone: z.number().int().min(0).max(5),
          hair: z.enum(["short", "long", "bun", "bald", "curly", "wavy"]),
          hairColour: z.enum(["black", "brown", "chestnut", "blonde", "grey", "auburn"]),
          attire: z.enum(["suit", "blazer", "turtleneck", "blouse", "shirt"]),
          hasGlasses: z.boolean(),
          hasBeard: z.boolean(),
        }),
      }),
    )
    .length(8),
});

export const RoadmapContentSchema = z.strictObject({
  quarters: z
    .array(
      z.strictObject({
        /** e.g. "2025-Q2"; the page formats it per language. */
        quarter: z.string().regex(/^\d{4}-Q[1-4]$/),
        items: z
          .array(
            z.strictObject({
              key: z.string().regex(/^[a-z0-9-]+$/),
              title: LocalizedSchema,
              description: LocalizedSchema,
            }),
          )
          .min(1),
      }),
    )
    .min(4),
});

export const FaqContentSchema = z.strictObject({
  items: z
    .array(
      z.strictObject({
        key: z.string().regex(/^[a-z0-9-]+$/),
        question: LocalizedSchema,
        /** May hold {{placeholders}} filled from the tokenomics module (see faq placeholders). */
        answer: LocalizedSchema,
      }),
    )
    .length(15),
});

export const WhitepaperContentSchema = z.strictObject({
  title: LocalizedSchema,
  subtitle: LocalizedSchema,
  sections: z
    .array(
      z.strictObject({
        key: z.string().regex(/^[a-z0-9-]+$/),
        heading: LocalizedSchema,
        /** Paragraphs; may hold the same {{placeholders}} as the FAQ. */
        paragraphs: z.array(LocalizedSchema).min(1),
      }),
    )
    .min(6),
});

/** The privacy notice (/privacy): what the site keeps about guests, why, how long, their rights. */
export const PrivacyNoticeContentSchema = z.strictObject({
  /** When the notice last changed (YYYY-MM-DD); the page shows it. */
  updated: z.iso.date(),
  sections: z
    .array(
      z.strictObject({
        /** Stable key, kebab-case; also the section's anchor. */
        key: z.string().regex(/^[a-z0-9-]+$/),
        title: LocalizedSchema,
        /** Paragraphs; may hold {{contactEmail}}, the operator's privacy address. */
        paragraphs: z.array(LocalizedSchema).min(1),
        /** A list after the paragraphs, when the section enumerates. */
        items: z.array(LocalizedSchema).min(1).optional(),
        /** Paragraphs after the list. */
        closing: z.array(LocalizedSchema).min(1).optional(),
      }),
    )
    .min(8),
});
