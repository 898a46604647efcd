/** Headers unfolded, encoded words and quoted-printable undone: enough to search a mail's text. */
export function decodeMail(raw: string): string {
  const unfolded = raw.replace(/\?=\r?\n[ \t]+=\?/g, "?==?").replace(/\r?\n[ \t]+/g, " ");
  const words = unfolded.replace(
    /=\?utf-8\?([qb])\?([^?]*)\?=/gi,
    (_match, encoding: string, text: string) =>
      encoding.toLowerCase() === "b"
        ? Buffer.from(text, "base64").toString("utf8")
        : decodeQuotedPrintable(text.replaceAll("_", " ")),
  );
  return decodeQuotedPrintable(words.replace(/=\r?\n/g, ""));
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/(?:=[0-9A-F]{2})+/g, (match) =>
    Buffer.from(
      match
        .split("=")
        .slice(1)
        .map((hex) => Number.parseInt(hex, 16)),
    ).toString("utf8"),
  );
}
