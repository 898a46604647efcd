import { join } from "node:path";
import { loadPropertyContent } from "#content/load-properties.ts";
import { slugify } from "#domain/catalogue/slug.ts";
import type { PropertyContent } from "#domain/catalogue/property-content.schema.ts";

const CATALOGUE = loadPropertyContent(join(import.meta.dirname, "../../content/properties"));

export interface DemoEstate {
  id: number;
  slug: string;
  /** The owner's contact email on record, the one that receives the verification code. */
  email: string;
  name: string;
  location: string;
  content: PropertyContent;
}

/**
 * An estate of the demo catalogue as the seed writes it, found by its slug: tests name an
 * estate by what a visitor sees, and read its id, email and text from content/, never copy them.
 */
export function demoEstate(slug: string): DemoEstate {
  const content = CATALOGUE.find((estate) => slugify(estate.content.en.name) === slug);
  if (!content) throw new Error(`no estate with the slug ${slug} in content/properties`);
  return {
    id: content.id,
    slug,
    email: content.ownerEmail,
    name: content.content.en.name,
    location: content.content.en.location,
    content,
  };
}
