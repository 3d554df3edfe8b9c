// Loaded with `node --require` into Electron's installer (node_modules/electron/install.js) by npm start.
// The installer downloads with the global fetch and shows a progress bar only on a terminal and only after 30 s,
// and when the download fails it prints just "TypeError: fetch failed". This wraps fetch so that the download
// prints its progress in steps of 10 % on stdout, and so that a failure's cause (a DNS error, a refused
// connection, an HTTP status) reaches stderr as one line npm start can quote. Nothing else is changed: the
// response and the error the installer gets are the ones fetch gave.
'use strict';

const CAUSE_PREFIX = 'qk-electron-install-cause: ';
const original = globalThis.fetch;

function describe(error, url) {
  const cause = error && error.cause;
  const host = (() => {
    try {
      return new URL(String(url)).host;
    } catch {
      return String(url);
    }
  })();
  if (cause && cause.code && cause.syscall) return `${host} could not be reached (${cause.syscall} ${cause.code})`;
  if (cause && (cause.message || cause.code)) return `${host}: ${cause.message || cause.code}`;
  return `${host}: ${error && error.message ? error.message : String(error)}`;
}

function megabytes(bytes) {
  return `${(bytes / 1e6).toFixed(bytes < 1e7 ? 1 : 0)} MB`;
}

function counted(response, name) {
  const total = Number(response.headers.get('content-length')) || 0;
  let received = 0;
  let reportedStep = -1;
  const report = (final) => {
    const step = total ? Math.floor((received / total) * 10) : Math.floor(received / 1e7);
    if (step === reportedStep && !final) return;
    reportedStep = step;
    const amount = total
      ? `${Math.floor((received / total) * 100)}% (${megabytes(received)} of ${megabytes(total)})`
      : megabytes(received);
    process.stdout.write(`  ${name}: ${amount}\n`);
  };
  const body = response.body.pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        received += chunk.byteLength;
        report(false);
        controller.enqueue(chunk);
      },
      flush() {
        if (reportedStep < 10) report(true);
      },
    }),
  );
  // Everything else (ok, status, url, headers) is the real response's.
  return new Proxy(response, {
    get(target, property) {
      if (property === 'body') return body;
      const value = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

if (typeof original === 'function') {
  globalThis.fetch = async function fetchWithProgress(input, init) {
    const url = typeof input === 'string' || input instanceof URL ? String(input) : input.url;
    const name = url.split('/').pop() || url;
    process.stdout.write(`  Downloading ${url}\n`);
    let response;
    try {
      response = await original(input, init);
    } catch (error) {
      process.stderr.write(`${CAUSE_PREFIX}${describe(error, url)}\n`);
      throw error;
    }
    if (!response.ok) {
      process.stderr.write(`${CAUSE_PREFIX}${new URL(url).host}: HTTP ${response.status} ${response.statusText}\n`);
      return response;
    }
    return response.body ? counted(response, name) : response;
  };
}
