// @peculiar/x509 with what it needs before it loads: a Reflect polyfill (its dependency injection
// asks for one) and Node's WebCrypto as its provider. Every file here imports x509 from this one.
import "reflect-metadata";
import * as x509 from "@peculiar/x509";

// Node 20's global WebCrypto: typed as the global `Crypto` both here and where a package compiles
// with the DOM library (e2e), where node:crypto's webcrypto type would not match x509's.
export const crypto = globalThis.crypto;
x509.cryptoProvider.set(crypto);

export { x509 };
