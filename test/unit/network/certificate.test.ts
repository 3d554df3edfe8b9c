import { X509Certificate } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, statSync, unlinkSync, writeFileSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { parseFingerprint } from '@qk/model';
import { fingerprintOf, loadOrCreateCredentials, PEER_CERT_FILE, PEER_KEY_FILE } from '@qk/network';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'qk-cert-'));
});
afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('peer certificate', () => {
  test('made at first start: key mode 0600, fingerprint sha256 of the DER, the same on the next start', async () => {
    const first = await loadOrCreateCredentials(dir, 'ALPHA');
    expect(statSync(join(dir, PEER_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(first.fingerprint).toMatch(/^sha256:[0-9a-f]{64}$/);
    const x509 = new X509Certificate(readFileSync(join(dir, PEER_CERT_FILE)));
    expect(first.fingerprint).toBe(`sha256:${x509.fingerprint256.replace(/:/g, '').toLowerCase()}`);
    expect(x509.subject).toContain('CN=ALPHA');
    const again = await loadOrCreateCredentials(dir, 'ALPHA');
    expect(again).toEqual(first);
  });

  test('a loosened key mode is tightened again', async () => {
    await loadOrCreateCredentials(dir, 'ALPHA');
    chmodSync(join(dir, PEER_KEY_FILE), 0o644);
    await loadOrCreateCredentials(dir, 'ALPHA');
    expect(statSync(join(dir, PEER_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  test('half a pair, or a key of another certificate, is refused rather than replaced', async () => {
    await loadOrCreateCredentials(dir, 'ALPHA');
    const otherDir = mkdtempSync(join(tmpdir(), 'qk-cert-'));
    try {
      await loadOrCreateCredentials(otherDir, 'BETA');
      writeFileSync(join(dir, PEER_KEY_FILE), readFileSync(join(otherDir, PEER_KEY_FILE)));
      await expect(loadOrCreateCredentials(dir, 'ALPHA')).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
      unlinkSync(join(dir, PEER_KEY_FILE));
      await expect(loadOrCreateCredentials(dir, 'ALPHA')).rejects.toMatchObject({ code: 'STORE_CORRUPT' });
    } finally {
      rmSync(otherDir, { recursive: true, force: true });
    }
  });

  test('fingerprints are read in the forms administrators paste', () => {
    const hex = 'ab'.repeat(32);
    expect(parseFingerprint(`sha256:${hex}`)).toBe(`sha256:${hex}`);
    expect(parseFingerprint(`SHA256:${hex.toUpperCase()}`)).toBe(`sha256:${hex}`);
    expect(parseFingerprint(`sha256:${hex.match(/../g)!.join(':')}`)).toBe(`sha256:${hex}`);
    for (const bad of [hex, 'sha256:abc', `sha1:${hex}`, `sha256:${hex}00`])
      expect(() => parseFingerprint(bad)).toThrow(expect.objectContaining({ code: 'INVALID_PARAMETER' }));
  });

  test('fingerprintOf gives the same answer for PEM and DER', async () => {
    const creds = await loadOrCreateCredentials(dir, 'ALPHA');
    expect(fingerprintOf(new X509Certificate(creds.cert).raw)).toBe(fingerprintOf(creds.cert));
  });
});
