/** Saves data as a file through the browser's download (Electron shows its Save dialog for it). */

function save(fileName: string, blob: Blob): void {
  const url = URL.createObjectURL(blob);
  const anchor = document.createElement('a');
  anchor.href = url;
  anchor.download = fileName;
  anchor.style.display = 'none';
  document.body.appendChild(anchor);
  anchor.click();
  anchor.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

/** Saves text (an export) as a file. */
export function downloadText(fileName: string, text: string, type = 'application/json'): void {
  save(fileName, new Blob([text], { type }));
}

/** Saves bytes given in base64 (a message body, byte for byte) as a file. */
export function downloadBytes(fileName: string, base64: string): void {
  const binary = atob(base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
  save(fileName, new Blob([bytes], { type: 'application/octet-stream' }));
}
