// Electron's security checklist, the items that are about what the code never does: a source audit of electron/
// and renderer/ (in the spirit of Electronegativity). The items met by what the code does are tested where it
// does them (window, app-protocol, app-main, ipc, preload, packaging tests); docs/reliability.md maps them all.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));

function sources(dir: string): Array<{ file: string; text: string }> {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(root, dir, name);
    if (statSync(path).isDirectory()) return sources(join(dir, name));
    return /\.(ts|tsx|html)$/.test(name) ? [{ file: relative(root, path), text: readFileSync(path, 'utf8') }] : [];
  });
}

/** Code without comments, so a comment that names a forbidden thing (to explain why not) is no finding. */
function code(text: string): string {
  return text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}

const all = [...sources('electron'), ...sources('renderer')];

/** Each forbidden pattern, with the checklist item it breaks. */
const forbidden: Array<[item: string, pattern: RegExp]> = [
  ['2. Node.js integration', /nodeIntegration(InWorker|InSubFrames)?\s*:\s*true/],
  ['3. context isolation', /contextIsolation\s*:\s*false/],
  ['4. sandbox', /sandbox\s*:\s*false|--no-sandbox|no-sandbox/],
  ['6. webSecurity', /webSecurity\s*:\s*false/],
  ['8. allowRunningInsecureContent', /allowRunningInsecureContent\s*:\s*true/],
  ['9. experimental features', /experimentalFeatures\s*:\s*true/],
  ['10. enableBlinkFeatures', /enableBlinkFeatures/],
  ['11. webview allowpopups', /allowpopups/],
  ['11./12. webviews', /webviewTag\s*:\s*true|<webview/],
  ['15. shell.openExternal', /openExternal/],
  ['18. file: protocol', /loadFile\s*\(|['"`]file:\/\//],
  ['20. Electron APIs in the page', /exposeInMainWorld\(\s*['"][^'"]+['"]\s*,\s*(ipcRenderer|require|process)\b/],
];

describe("Electron's security checklist: what the code never does", () => {
  it('finds the sources it audits', () => {
    expect(all.some((source) => source.file === 'electron/window.ts')).toBe(true);
    expect(all.some((source) => source.file.startsWith('renderer/src/'))).toBe(true);
  });

  for (const [item, pattern] of forbidden) {
    it(`item ${item}: never`, () => {
      const findings = all.filter((source) => pattern.test(code(source.text))).map((source) => source.file);
      expect(findings).toEqual([]);
    });
  }

  it('the renderer never reaches Electron or Node itself: only through window.queuekeeper', () => {
    const findings = sources('renderer')
      .filter((source) => /from ['"](electron|node:[a-z/]+)['"]|require\(['"]electron['"]\)/.test(code(source.text)))
      .map((source) => source.file);
    expect(findings).toEqual([]);
  });

  it('the audit itself catches what it looks for', () => {
    const sample = code(
      "new BrowserWindow({ webPreferences: { webSecurity: false } }); contextBridge.exposeInMainWorld('x', ipcRenderer); // sandbox: false is bad",
    );
    expect(forbidden.filter(([, pattern]) => pattern.test(sample)).map(([item]) => item)).toEqual([
      '6. webSecurity',
      '20. Electron APIs in the page',
    ]);
  });
});
