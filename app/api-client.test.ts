import { describe, expect, it } from "vitest";
import { updateOwnerProperty, verifyOwnerEmail } from "#domain/owners/owners.contract.ts";
import { readAnswer } from "./api-client.ts";

describe("readAnswer", () => {
  it("reads a documented answer with its status's schema", () => {
    const answer = readAnswer(verifyOwnerEmail, 200, { propertyFound: true, codeSent: true });
    expect(answer).toEqual({
      status: 200,
      ok: true,
      data: { propertyFound: true, codeSent: true },
      message: null,
      errors: [],
      code: null,
    });
  });

  it("treats a success whose body breaks the schema as unexpected, not as data", () => {
    const answer = readAnswer(verifyOwnerEmail, 200, { propertyFound: "yes" });
    expect(answer).toMatchObject({ status: 200, ok: false, data: undefined });
  });

  it("carries the server's message and field issues of a refusal", () => {
    const answer = readAnswer(updateOwnerProperty, 400, {
      message: "Validation failed",
      errors: [{ path: "value", message: "Too long" }],
    });
    expect(answer).toMatchObject({
      ok: false,
      status: 400,
      message: "Validation failed",
      errors: [{ path: "value", message: "Too long" }],
    });
  });

  it("keeps the message of an undocumented status, and no data", () => {
    const answer = readAnswer(verifyOwnerEmail, 502, { message: "Bad gateway" });
    expect(answer).toEqual({
      status: 502,
      ok: false,
      data: undefined,
      message: "Bad gateway",
      errors: [],
      code: null,
    });
  });

  it("carries a refusal's code, for the page to branch on", () => {
    const answer = readAnswer(verifyOwnerEmail, 429, {
      message: "Too many codes",
      code: "too_many_codes",
    });
    expect(answer).toMatchObject({ ok: false, status: 429, code: "too_many_codes" });
  });
});
