import { createHash } from "node:crypto";
import type { PropertyImage } from "#domain/catalogue/property.ts";
import { TEAM } from "../site-content.ts";
import { PORTRAIT_SIZE, type PortraitSpec, renderPortraitSvg } from "./portrait-artwork.ts";

/** Bump when the portrait generator's output changes (new keys, new immutable URLs). */
export const PORTRAIT_VERSION = 1;

type TeamMember = (typeof TEAM.members)[number];

/** The media key of a team member's portrait; it changes with the portrait's inputs. */
export function portraitKey(member: TeamMember): string {
  const hash = createHash("sha256")
    .update(`${PORTRAIT_VERSION}:${JSON.stringify(member.portrait)}`)
    .digest("hex")
    .slice(0, 10);
  return `team-${member.key}-${hash}`;
}

/** A team member's portrait as an image the media route serves. */
export function portraitImage(member: TeamMember): PropertyImage {
  return { key: portraitKey(member), width: PORTRAIT_SIZE, height: PORTRAIT_SIZE };
}

const BY_KEY = new Map(TEAM.members.map((member) => [portraitKey(member), member.portrait]));

/** The SVG of the portrait behind a media key, or undefined for any other key. */
export function renderTeamPortrait(key: string): string | undefined {
  const spec = BY_KEY.get(key);
  return spec ? renderPortraitSvg(spec as PortraitSpec) : undefined;
}
