// The certificates of one cluster: a self-signed CA, the server's certificate, and one
// certificate per node whose common name is the node's id. Nodes make their own key and send a
// CSR, so a node's private key never leaves it.
import { createHash, randomBytes } from "node:crypto";
import { x509 } from "./x509";
import { SIGNING_ALGORITHM, generateKeyPair, privateKeyFromPem, privateKeyToPem } from "./keys";

const DAY_MS = 24 * 60 * 60 * 1000;
/** Issued certificates start a little in the past so a node whose clock lags still accepts them. */
const BACKDATE_MS = 5 * 60 * 1000;

export interface KeyAndCertificate {
  certPem: string;
  keyPem: string;
}

export interface CertificateFacts {
  subjectCn: string;
  /** Lowercase hex without leading zeros, as `normalizeSerialHex` writes it. */
  serialHex: string;
  notBeforeMs: number;
  notAfterMs: number;
  /** Lowercase hex SHA-256 of the certificate's DER. */
  fingerprintSha256: string;
}

export async function createCa(commonName: string, validDays: number): Promise<KeyAndCertificate> {
  const keys = await generateKeyPair();
  const nowMs = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: newSerialHex(),
    name: [{ CN: [commonName] }],
    notBefore: new Date(nowMs - BACKDATE_MS),
    notAfter: new Date(nowMs + validDays * DAY_MS),
    signingAlgorithm: SIGNING_ALGORITHM,
    keys,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: await privateKeyToPem(keys.privateKey) };
}

export interface ServerCertificateOptions {
  names: readonly string[];
  addresses: readonly string[];
  validDays: number;
}

/** The server's certificate: server and client auth, every name and address as a SAN. */
export async function issueServerCertificate(
  ca: KeyAndCertificate,
  options: ServerCertificateOptions,
): Promise<KeyAndCertificate> {
  const keys = await generateKeyPair();
  const sans: x509.JsonGeneralName[] = [
    ...options.names.map((value) => ({ type: "dns" as const, value })),
    ...options.addresses.map((value) => ({ type: "ip" as const, value })),
  ];
  const cert = await signWithCa(ca, {
    subjectCn: options.names[0] ?? "llmgw server",
    publicKey: keys.publicKey,
    validMs: options.validDays * DAY_MS,
    usages: [x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth],
    extensions: [new x509.SubjectAlternativeNameExtension(sans)],
  });
  return { certPem: cert.toString("pem"), keyPem: await privateKeyToPem(keys.privateKey) };
}

/** What a node makes on its own: a key (kept) and a CSR naming its id (sent). */
export async function createKeyAndCsr(
  commonName: string,
): Promise<{ keyPem: string; csrPem: string }> {
  const keys = await generateKeyPair();
  const csr = await x509.Pkcs10CertificateRequestGenerator.create({
    name: [{ CN: [commonName] }],
    keys,
    signingAlgorithm: SIGNING_ALGORITHM,
  });
  return { keyPem: await privateKeyToPem(keys.privateKey), csrPem: csr.toString("pem") };
}

export interface NodeCertificateOptions {
  nodeId: string;
  validDays: number;
  /** Overrides validDays; tests use seconds to see renewal happen. */
  validSeconds?: number;
}

/**
 * Signs a node's CSR after checking its signature (the sender holds the key) and that it names
 * the node it is issued for. Only the CSR's public key is used: the subject is set here.
 */
export async function signNodeCsr(
  ca: KeyAndCertificate,
  csrPem: string,
  options: NodeCertificateOptions,
): Promise<{ certPem: string; serialHex: string; notAfterMs: number }> {
  const csr = parseCsr(csrPem);
  if (!(await csr.verify())) throw new Error("the CSR's signature does not match its public key");
  const csrCn = commonNameOf(csr.subjectName);
  if (csrCn !== options.nodeId)
    throw new Error(`the CSR names "${csrCn}", not the node id "${options.nodeId}"`);
  const cert = await signWithCa(ca, {
    subjectCn: options.nodeId,
    publicKey: csr.publicKey,
    validMs: (options.validSeconds ?? options.validDays * 24 * 60 * 60) * 1000,
    usages: [x509.ExtendedKeyUsage.clientAuth],
    extensions: [],
  });
  const facts = await readCertificate(cert.toString("pem"));
  return {
    certPem: cert.toString("pem"),
    serialHex: facts.serialHex,
    notAfterMs: facts.notAfterMs,
  };
}

/** The common name a CSR asks for, after checking it is a well-formed, signed CSR. */
export async function csrCommonName(csrPem: string): Promise<string> {
  const csr = parseCsr(csrPem);
  if (!(await csr.verify())) throw new Error("the CSR's signature does not match its public key");
  return commonNameOf(csr.subjectName);
}

export async function readCertificate(pem: string): Promise<CertificateFacts> {
  const cert = parseCertificate(pem);
  return {
    subjectCn: commonNameOf(cert.subjectName),
    serialHex: normalizeSerialHex(cert.serialNumber),
    notBeforeMs: cert.notBefore.getTime(),
    notAfterMs: cert.notAfter.getTime(),
    fingerprintSha256: createHash("sha256").update(Buffer.from(cert.rawData)).digest("hex"),
  };
}

/** What `--ca-sha256` pins: the lowercase hex SHA-256 of the CA certificate's DER. */
export function caFingerprint(certPem: string): string {
  const cert = parseCertificate(certPem);
  return createHash("sha256").update(Buffer.from(cert.rawData)).digest("hex");
}

/** One spelling for serials, whether they come from a PEM or from Node's TLS peer certificate. */
export function normalizeSerialHex(serial: string): string {
  const hex = serial.toLowerCase().replace(/[^0-9a-f]/g, "");
  return hex.replace(/^0+(?=.)/, "");
}

interface SignRequest {
  subjectCn: string;
  publicKey: x509.PublicKeyType;
  validMs: number;
  usages: x509.ExtendedKeyUsage[];
  extensions: x509.Extension[];
}

async function signWithCa(
  ca: KeyAndCertificate,
  request: SignRequest,
): Promise<x509.X509Certificate> {
  const caCert = parseCertificate(ca.certPem);
  const nowMs = Date.now();
  return x509.X509CertificateGenerator.create({
    serialNumber: newSerialHex(),
    subject: [{ CN: [request.subjectCn] }],
    issuer: caCert.subjectName.toString(),
    notBefore: new Date(nowMs - BACKDATE_MS),
    notAfter: new Date(nowMs + request.validMs),
    signingAlgorithm: SIGNING_ALGORITHM,
    publicKey: request.publicKey,
    signingKey: await privateKeyFromPem(ca.keyPem),
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      new x509.ExtendedKeyUsageExtension(request.usages),
      await x509.AuthorityKeyIdentifierExtension.create(caCert.publicKey),
      ...request.extensions,
    ],
  });
}

/** 16 random bytes, first byte 0x10-0x7f: positive, and never shortened by a leading zero. */
function newSerialHex(): string {
  const bytes = randomBytes(16);
  bytes[0] = 0x10 + ((bytes[0] ?? 0) % 0x70);
  return bytes.toString("hex");
}

function parseCertificate(pem: string): x509.X509Certificate {
  try {
    return new x509.X509Certificate(pem);
  } catch {
    throw new Error("not a PEM certificate");
  }
}

function parseCsr(pem: string): x509.Pkcs10CertificateRequest {
  try {
    return new x509.Pkcs10CertificateRequest(pem);
  } catch {
    throw new Error("not a PEM certificate signing request");
  }
}

function commonNameOf(name: x509.Name): string {
  return name.getField("CN")[0] ?? "";
}
