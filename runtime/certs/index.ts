/**
 * certs: X.509 certificates without openssl (self-signed serving certificates for the metrics
 * server, a CA and leaves for the test control plane) and a watcher that reloads a certificate
 * and key from files when they change.
 */
export {
  type KeyPair,
  type IssuedCertificate,
  type Subject,
  type CertificateRequest,
  type SelfSignedOptions,
  newKeyPair,
  issueCertificate,
  selfSignedServingCertificate,
} from './x509.js';
export {
  type CertificatePair,
  type CertificateSource,
  type CertWatcherOptions,
  CertWatcher,
  CertificateLoadError,
  staticCertificate,
  validatePair,
} from './watcher.js';
