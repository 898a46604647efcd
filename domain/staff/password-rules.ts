/** Password lengths, in code points (browser-safe: the setup form checks them too). */
export const PASSWORD_MIN_LENGTH = 12;
export const PASSWORD_MAX_LENGTH = 128;
