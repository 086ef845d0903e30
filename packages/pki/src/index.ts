// The cluster's PKI: a CA, the server's certificate, node certificates from CSRs, and the files
// in the server's home. ECDSA P-256 through Node's WebCrypto and @peculiar/x509. Node only.
export {
  caFingerprint,
  createCa,
  createKeyAndCsr,
  csrCommonName,
  issueServerCertificate,
  normalizeSerialHex,
  readCertificate,
  signNodeCsr,
  type CertificateFacts,
  type KeyAndCertificate,
  type NodeCertificateOptions,
  type ServerCertificateOptions,
} from "./certificates";
export {
  ensureServerPki,
  readServerCa,
  serverPkiPaths,
  type ServerPkiOptions,
  type ServerPkiPaths,
} from "./server-pki";
