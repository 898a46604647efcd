/** What a route module may say of its page to the document (its `handle` export). */
export interface PageHandle {
  /**
   * The page's largest paint is an image (the home page's hero, an estate's first photo): the
   * display face is not preloaded, so it does not share the first bytes with that image.
   */
  lcpIsImage?: boolean;
}
