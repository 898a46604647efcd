import type { Artwork, IllustrationSource } from "#domain/media/artwork.ts";
import { renderEstateSvg } from "./estate-artwork.ts";
import { renderTeamPortrait } from "./team-portraits.ts";

/** The SVG an estate illustration is rasterised from (uploads have originals instead). */
function drawIllustration(source: IllustrationSource): string {
  return renderEstateSvg({
    seed: source.seed,
    terrain: source.terrain as Parameters<typeof renderEstateSvg>[0]["terrain"],
    architecture: source.architecture as Parameters<typeof renderEstateSvg>[0]["architecture"],
    index: source.index,
  });
}

/**
 * The demo site's generated images: the estates' illustrations and the team's portraits.
 * server/app.ts hands it to the media route, so the domain draws them without knowing them.
 */
export const DEMO_ARTWORK: Artwork = { drawIllustration, drawByKey: renderTeamPortrait };
