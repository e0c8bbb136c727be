/**
 * The accounts server's tokens: JWTs (HS256, RFC 7519) signed with node:crypto's HMAC under a secret made at
 * each start, verified as a careful server does (the `alg` must be HS256, the signature must match in constant
 * time, the token must not have expired), with the two planted laxities the catalogue names.
 */
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** What a token of the accounts server says. */
export interface Claims {
  /** The username. */
  sub: string;
  /**
   * Issued at and expires at, in seconds since the epoch (NumericDate: fractions allowed, and `iat` has them, so a
   * token issued before its account was deleted and registered again is told apart from the new account's).
   */
  iat: number;
  exp: number;
  jti: string;
}

/** The planted laxities of the verification. */
export interface Laxity {
  signatureIgnored: boolean;
  algNone: boolean;
}

const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString("base64url");
const mac = (secret: Buffer, text: string) => createHmac("sha256", secret).update(text).digest();

/** A fresh signing secret. */
export const newSecret = (): Buffer => randomBytes(32);

/** A token id. */
export const randomId = (): string => randomBytes(9).toString("base64url");

/** `claims` as a signed HS256 JWT. */
export function signJwt(secret: Buffer, claims: Claims): string {
  const signed = `${encode({ alg: "HS256", typ: "JWT" })}.${encode(claims)}`;
  return `${signed}.${mac(secret, signed).toString("base64url")}`;
}

function decoded(part: string): Record<string, unknown> | undefined {
  if (!/^[A-Za-z0-9_-]*$/.test(part)) return undefined;
  try {
    const value: unknown = JSON.parse(Buffer.from(part, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/** The claims of `token` when it is a valid, unexpired JWT signed with `secret`; otherwise why not (never the token). */
export function verifyJwt(secret: Buffer, token: string, lax: Laxity): Claims | { refused: string } {
  const parts = token.split(".");
  if (parts.length !== 3) return { refused: "the token is not a JWT" };
  const [head, body, signature] = parts as [string, string, string];
  const header = decoded(head);
  const claims = decoded(body);
  if (!header || !claims) return { refused: "the token is not a JWT" };
  const alg = typeof header.alg === "string" ? header.alg : "";
  if (alg.toLowerCase() === "none") {
    if (!lax.algNone || signature !== "") return { refused: "unsigned tokens are not accepted" };
  } else if (alg !== "HS256") {
    return { refused: "the token's algorithm is not accepted" };
  } else if (!lax.signatureIgnored) {
    const given = Buffer.from(signature, "base64url");
    const expected = mac(secret, `${head}.${body}`);
    if (!/^[A-Za-z0-9_-]+$/.test(signature) || given.length !== expected.length || !timingSafeEqual(given, expected))
      return { refused: "the token's signature is not valid" };
  }
  const { sub, exp, iat, jti } = claims;
  if (typeof sub !== "string" || typeof exp !== "number" || typeof iat !== "number" || typeof jti !== "string")
    return { refused: "the token lacks its claims" };
  if (exp * 1000 <= Date.now()) return { refused: "the token has expired" };
  return claims as unknown as Claims;
}
