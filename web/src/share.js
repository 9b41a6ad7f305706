// Code in the URL fragment. Two forms are read:
//   #code=<base64url of the UTF-8 source>             (the documented, plain form)
//   #z=<base64url of the deflate-raw compressed UTF-8> (shorter; written when the browser can compress)
// The fragment never reaches the server.

export function toBase64Url(bytes) {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

export function fromBase64Url(text) {
  const b64 = text.replace(/-/g, "+").replace(/_/g, "/");
  if (!/^[A-Za-z0-9+/]*$/.test(b64) || b64.length % 4 === 1) throw new Error("not base64url");
  const binary = atob(b64 + "=".repeat((4 - (b64.length % 4)) % 4));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

async function pipeBytes(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

/** The plain #code= fragment (synchronous). */
export function plainFragment(code) {
  return "#code=" + toBase64Url(new TextEncoder().encode(code));
}

const canCompress = typeof CompressionStream !== "undefined";

/** The fragment (with "#") that carries this code: the compressed form when it is shorter. */
export async function encodeFragment(code) {
  const bytes = new TextEncoder().encode(code);
  const plain = plainFragment(code);
  if (!canCompress) return plain;
  const packed = "#z=" + toBase64Url(await pipeBytes(bytes, new CompressionStream("deflate-raw")));
  return packed.length < plain.length ? packed : plain;
}

/** The code in a fragment, or null when it has none; throws with a reason when it is malformed. */
export async function decodeFragment(hash) {
  const params = new URLSearchParams(hash.replace(/^#/, ""));
  const decoder = new TextDecoder("utf-8", { fatal: true });
  if (params.has("code")) {
    try {
      return decoder.decode(fromBase64Url(params.get("code")));
    } catch {
      throw new Error("the link's #code= is not base64url of UTF-8 text");
    }
  }
  if (params.has("z")) {
    try {
      return decoder.decode(await pipeBytes(fromBase64Url(params.get("z")), new DecompressionStream("deflate-raw")));
    } catch {
      throw new Error("the link's #z= is not compressed code");
    }
  }
  return null;
}
