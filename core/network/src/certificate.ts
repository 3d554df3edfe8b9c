/**
 * The service's own key and self-signed certificate for peer links. Made once, at first start, in the data
 * folder; other computers trust it by its fingerprint (as SSH trusts host keys), so it must never change by
 * itself: an unreadable or mismatched pair is an error to fix, not a reason to mint a new identity.
 */
import { createHash, createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import selfsigned from 'selfsigned';
import { QkError } from '@qk/model';

export const PEER_KEY_FILE = 'peer.key';
export const PEER_CERT_FILE = 'peer.crt';

/** A fingerprint as peers exchange it: `sha256:` + 64 lower-case hex digits of the certificate's DER. */
export type Fingerprint = string;

export interface PeerCredentials {
  /** PEM private key. */
  key: string;
  /** PEM certificate. */
  cert: string;
  fingerprint: Fingerprint;
}

/** The fingerprint of a certificate given as PEM text or DER bytes. */
export function fingerprintOf(certificate: string | Buffer): Fingerprint {
  const der = typeof certificate === 'string' ? new X509Certificate(certificate).raw : certificate;
  return `sha256:${createHash('sha256').update(der).digest('hex')}`;
}

/** Loads the key and certificate of a data folder, making them first when the folder has none. */
export async function loadOrCreateCredentials(dataDir: string, computerName: string): Promise<PeerCredentials> {
  const keyPath = join(dataDir, PEER_KEY_FILE);
  const certPath = join(dataDir, PEER_CERT_FILE);
  const haveKey = existsSync(keyPath);
  const haveCert = existsSync(certPath);
  if (haveKey !== haveCert) {
    throw new QkError(
      'STORE_CORRUPT',
      `The data folder has ${haveKey ? PEER_KEY_FILE : PEER_CERT_FILE} without ${haveKey ? PEER_CERT_FILE : PEER_KEY_FILE}; restore the missing file (other computers trust this pair), or delete both to make a new identity that every peer must trust again.`,
    );
  }
  if (!haveKey) await createCredentials(keyPath, certPath, computerName);
  return readCredentials(keyPath, certPath);
}

function readCredentials(keyPath: string, certPath: string): PeerCredentials {
  // The key is secret: tighten a mode that someone loosened, as ssh refuses a world-readable host key.
  chmodSync(keyPath, 0o600);
  const key = readFileSync(keyPath, 'utf8');
  const cert = readFileSync(certPath, 'utf8');
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(cert);
    if (!x509.checkPrivateKey(createPrivateKey(key))) throw new Error('the key does not belong to the certificate');
  } catch (error) {
    throw new QkError(
      'STORE_CORRUPT',
      `The peer certificate in ${certPath} cannot be used: ${error instanceof Error ? error.message : String(error)}.`,
    );
  }
  return { key, cert, fingerprint: fingerprintOf(x509.raw) };
}

async function createCredentials(keyPath: string, certPath: string, computerName: string): Promise<void> {
  const now = Date.now();
  const DAY = 86_400_000;
  // Peers pin the fingerprint, never the validity dates: a long life spares administrators a re-trust.
  const generated = await selfsigned.generate([{ name: 'commonName', value: computerName }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate: new Date(now - DAY),
    notAfterDate: new Date(now + 100 * 365 * DAY),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true, clientAuth: true },
    ],
  });
  // Key first and with its final mode from the start; each file appears whole or not at all.
  writeAtomically(keyPath, generated.private, 0o600);
  // Public, but every file of the data folder is owner-only (issue 7, item 5); peers learn it by fingerprint.
  writeAtomically(certPath, generated.cert, 0o600);
}

function writeAtomically(path: string, contents: string, mode: number): void {
  const temp = `${path}.${process.pid}.tmp`;
  writeFileSync(temp, contents, { mode, flag: 'w' });
  chmodSync(temp, mode);
  renameSync(temp, path);
}
