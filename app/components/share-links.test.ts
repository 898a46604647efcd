import { describe, expect, it } from "vitest";
import { popupFeatures, shareUrl } from "./share-links.ts";

const content = {
  title: "Book a unique stay with Castellum! Check out Gordon Castle",
  description: "A walled garden & a river",
  url: "https://castellum.example/property/gordon-castle",
};

describe("share links", () => {
  it("puts title, description and page URL in each network's share address", () => {
    const x = new URL(shareUrl("x", content));
    expect(x.origin + x.pathname).toBe("https://x.com/intent/tweet");
    expect(x.searchParams.get("text")).toBe(`${content.title}\n${content.description}`);
    expect(x.searchParams.get("url")).toBe(content.url);

    const facebook = new URL(shareUrl("facebook", content));
    expect(facebook.searchParams.get("u")).toBe(content.url);

    const linkedin = new URL(shareUrl("linkedin", content));
    expect(linkedin.searchParams.get("url")).toBe(content.url);
    expect(linkedin.searchParams.get("title")).toBe(content.title);
    expect(linkedin.searchParams.get("summary")).toBe(content.description);

    const whatsapp = new URL(shareUrl("whatsapp", content));
    expect(whatsapp.searchParams.get("text")).toBe(
      `${content.title}\n${content.description}\n${content.url}`,
    );
  });

  it("sizes pop-ups 600×400 and centres them", () => {
    expect(popupFeatures(100, 50, 1400, 1000)).toBe(
      "popup=yes,width=600,height=400,left=500,top=350",
    );
  });
});
