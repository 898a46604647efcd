import { createHash, generateKeyPairSync, type KeyObject, randomBytes, sign } from "node:crypto";
import { encodeCBOR } from "@levischuck/tiny-cbor";

/**
 * A software authenticator for API tests: what a browser and a platform
 * authenticator would send, made with a real P-256 key. Registration answers attestation
 * "none"; assertions are signed over authenticatorData and the clientDataJSON's hash, as the
 * WebAuthn specification says, so the server's library verifies them like a browser's.
 */

interface Credential {
  id: string;
  privateKey: KeyObject;
  counter: number;
  userHandle: string;
}

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString("base64url");
const sha256 = (data: Uint8Array | string) => createHash("sha256").update(data).digest();

export interface WebAuthnOptionsJson {
  challenge: string;
  user?: { id: string };
  allowCredentials?: { id: string }[];
}

export interface Gesture {
  /** The page's origin as the browser would write it (a phishing site writes its own). */
  origin?: string;
  /** Whether the person was verified (PIN, biometrics): false sets only user presence. */
  userVerified?: boolean;
  /** The signature counter to send instead of the next one (a cloned key's). */
  counter?: number;
  /** Which credential to use (default: the first allowed, or the newest). */
  credentialId?: string;
}

export class SoftAuthenticator {
  readonly credentials: Credential[] = [];

  private readonly rp: { id: string; origin: string };

  constructor(rp: { id: string; origin: string }) {
    this.rp = rp;
  }

  private authenticatorData(flags: number, counter: number, attested?: Buffer): Buffer {
    const count = Buffer.alloc(4);
    count.writeUInt32BE(counter);
    return Buffer.concat([
      sha256(this.rp.id),
      Buffer.from([flags]),
      count,
      attested ?? Buffer.alloc(0),
    ]);
  }

  private clientData(type: string, challenge: string, origin?: string): Buffer {
    return Buffer.from(
      JSON.stringify({ type, challenge, origin: origin ?? this.rp.origin, crossOrigin: false }),
    );
  }

  /** `navigator.credentials.create` with the server's options: a new discoverable credential. */
  register(options: WebAuthnOptionsJson, gesture: Gesture = {}) {
    const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
    const jwk = publicKey.export({ format: "jwk" });
    const cose = encodeCBOR(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
    const idBytes = randomBytes(16);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(idBytes.length);
    const attested = Buffer.concat([Buffer.alloc(16), idLength, idBytes, Buffer.from(cose)]);
    const flags = FLAG_UP | (gesture.userVerified === false ? 0 : FLAG_UV) | FLAG_AT;
    const authData = this.authenticatorData(flags, 0, attested);
    const attestationObject = encodeCBOR(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const id = b64url(idBytes);
    this.credentials.push({ id, privateKey, counter: 0, userHandle: options.user?.id ?? "" });
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(
          this.clientData("webauthn.create", options.challenge, gesture.origin),
        ),
        attestationObject: b64url(attestationObject),
        transports: ["internal"],
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }

  /** `navigator.credentials.get` with the server's options: a signed assertion. */
  authenticate(options: WebAuthnOptionsJson, gesture: Gesture = {}) {
    const allowed = options.allowCredentials?.map((entry) => entry.id);
    const wanted =
      gesture.credentialId ??
      allowed?.find((id) => this.credentials.some((key) => key.id === id)) ??
      this.credentials.at(-1)?.id;
    const credential = this.credentials.find((key) => key.id === wanted);
    if (!credential) throw new Error("the authenticator holds no such credential");
    credential.counter = gesture.counter ?? credential.counter + 1;
    const flags = FLAG_UP | (gesture.userVerified === false ? 0 : FLAG_UV);
    const authData = this.authenticatorData(flags, credential.counter);
    const clientData = this.clientData("webauthn.get", options.challenge, gesture.origin);
    const signature = sign(
      "sha256",
      Buffer.concat([authData, sha256(clientData)]),
      credential.privateKey,
    );
    return {
      id: credential.id,
      rawId: credential.id,
      type: "public-key" as const,
      response: {
        clientDataJSON: b64url(clientData),
        authenticatorData: b64url(authData),
        signature: b64url(signature),
        userHandle: credential.userHandle,
      },
      clientExtensionResults: {},
      authenticatorAttachment: "platform",
    };
  }
}
