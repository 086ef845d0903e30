// @peculiar/x509 with what it needs before it loads: a Reflect polyfill (its dependency injection
// asks for one) and Node's WebCrypto as its provider. Every file here imports x509 from this one.
import "reflect-metadata";
import { webcrypto } from "node:crypto";
import * as x509 from "@peculiar/x509";

export const crypto = webcrypto;
x509.cryptoProvider.set(crypto);

export { x509 };
