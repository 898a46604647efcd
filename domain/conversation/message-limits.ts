/** The longest message, staff's or the guest's (this module has no zod: pages load it for free). */
export const MESSAGE_MAX_LENGTH = 2000;
