import { createHash, generateKeyPairSync, randomBytes, sign } from "node:crypto";

// A passkey in software for server tests: an ES256 key, a "none" attestation and signed
// assertions built as an authenticator builds them (WebAuthn §6.1, §6.5; CBOR by hand, only
// the few types a credential needs). The browser journey runs Chromium's own authenticator.

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 256) return Buffer.from([(major << 5) | 24, n]);
  return Buffer.from([(major << 5) | 25, n >> 8, n & 0xff]);
}
type Cbor = number | string | Buffer | Map<Cbor, Cbor>;
function cbor(v: Cbor): Buffer {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -1 - v);
  if (typeof v === "string") return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v]);
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [cbor(k), cbor(x)])]);
}

const sha256 = (b: Buffer | string) => createHash("sha256").update(b).digest();
const b64u = (b: Buffer | string) => Buffer.from(b).toString("base64url");

function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}
const clientData = (type: string, challenge: string, origin: string) => Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

export interface SoftwarePasskey {
  credentialId: string;
  /** The answer to registration options (RegistrationResponseJSON). */
  register(options: { challenge: string }, origin: string): Record<string, unknown>;
  /** A signed answer to sign-in options (AuthenticationResponseJSON); the counter goes up unless given. */
  assert(options: { challenge: string }, origin: string, counter?: number): Record<string, unknown>;
}

export function softwarePasskey(rpId: string): SoftwarePasskey {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const jwk = publicKey.export({ format: "jwk" });
  const id = randomBytes(16);
  let counter = 0;
  const rpIdHash = sha256(rpId);

  return {
    credentialId: b64u(id),
    register(options, origin) {
      const coseKey = cbor(
        new Map<Cbor, Cbor>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, Buffer.from(jwk.x ?? "", "base64url")],
          [-3, Buffer.from(jwk.y ?? "", "base64url")],
        ]),
      );
      const idLength = Buffer.from([0, id.length]);
      // Flags: user present, user verified, attested credential data.
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x45]), u32(counter), Buffer.alloc(16), idLength, id, coseKey]);
      const attestationObject = cbor(
        new Map<Cbor, Cbor>([
          ["fmt", "none"],
          ["attStmt", new Map()],
          ["authData", authData],
        ]),
      );
      return {
        id: b64u(id),
        rawId: b64u(id),
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON: b64u(clientData("webauthn.create", options.challenge, origin)), attestationObject: b64u(attestationObject), transports: ["internal"] },
      };
    },
    assert(options, origin, at) {
      counter = at ?? counter + 1;
      const authData = Buffer.concat([rpIdHash, Buffer.from([0x05]), u32(counter)]);
      const data = clientData("webauthn.get", options.challenge, origin);
      const signature = sign("sha256", Buffer.concat([authData, sha256(data)]), privateKey);
      return {
        id: b64u(id),
        rawId: b64u(id),
        type: "public-key",
        clientExtensionResults: {},
        response: { clientDataJSON: b64u(data), authenticatorData: b64u(authData), signature: b64u(signature) },
      };
    },
  };
}
