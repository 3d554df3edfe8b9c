/**
 * The page served at `/` when the console has not been built: it lists queues through the API. It signs in
 * as the console does: the one-time code of its link (`#code=…`) is exchanged for a session token kept in
 * this tab. Script and style in files of their own: the console's CSP forbids inline code.
 */

/** The fallback page's style sheet (served as /fallback.css). */
export const FALLBACK_PAGE_STYLE = `body { font: 14px system-ui, sans-serif; margin: 0; color: #1b1b1b; background: #fafafa; }
header { background: #1f3b5c; color: #fff; padding: 10px 16px; display: flex; gap: 16px; align-items: baseline; }
header h1 { font-size: 16px; margin: 0; }
main { padding: 16px; }
table { border-collapse: collapse; width: 100%; background: #fff; }
th, td { text-align: left; padding: 4px 8px; border-bottom: 1px solid #e2e2e2; white-space: nowrap; }
th { background: #f0f0f0; font-weight: 600; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
#error { color: #a00000; }
.muted { color: #666; }
`;

/** The fallback page's HTML. */
export const FALLBACK_PAGE_HTML = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>Queuekeeper</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/fallback.css">
</head>
<body>
<header><h1>Queuekeeper</h1><span id="computer" class="muted"></span></header>
<main>
  <p class="muted">The full console has not been built (run <code>npm run build</code>); this page lists the queues of this service.</p>
  <p id="error" role="alert"></p>
  <table aria-label="Queues">
    <thead><tr><th>Path</th><th>Type</th><th>Transactional</th><th>Label</th><th class="num">Messages</th><th class="num">Bytes</th><th class="num">Journal messages</th></tr></thead>
    <tbody id="queues"></tbody>
  </table>
</main>
<script src="/fallback.js"></script>
</body>
</html>
`;

/** The fallback page's script: plain browser JavaScript, no build step. */
export const FALLBACK_PAGE_SCRIPT = `'use strict';
(function () {
  var errorBox = document.getElementById('error');
  var body = document.getElementById('queues');
  var numbers = new Intl.NumberFormat();
  var code = new URLSearchParams(location.hash.slice(1)).get('code');
  if (code) history.replaceState(null, '', location.pathname + location.search);
  function post(path, token, input) {
    var headers = { 'content-type': 'application/json' };
    if (token) headers.authorization = 'Bearer ' + token;
    return fetch(path, { method: 'POST', headers: headers, body: JSON.stringify(input || {}) })
      .then(function (r) { return r.json(); })
      .then(function (envelope) {
        if (!envelope.ok) throw new Error(envelope.error.code + ': ' + envelope.error.message);
        return envelope.value;
      });
  }
  var session = code
    ? post('/console/session', null, { code: code }).then(function (v) {
        sessionStorage.setItem('queuekeeper.token', v.token);
        return v.token;
      })
    : Promise.resolve(sessionStorage.getItem('queuekeeper.token') || '');
  function call(op, input) {
    return session.then(function (token) { return post('/api/v1/' + op, token, input); });
  }
  function cell(row, text, numeric) {
    var td = document.createElement('td');
    td.textContent = text;
    if (numeric) td.className = 'num';
    row.appendChild(td);
  }
  function refresh() {
    call('queueList').then(function (queues) {
      errorBox.textContent = '';
      body.replaceChildren();
      queues.forEach(function (q) {
        var row = document.createElement('tr');
        cell(row, q.path); cell(row, q.type); cell(row, q.transactional ? 'yes' : 'no'); cell(row, q.label);
        cell(row, numbers.format(q.messageCount), true); cell(row, numbers.format(q.bytes), true);
        cell(row, numbers.format(q.journalMessageCount), true);
        body.appendChild(row);
      });
    }).catch(function (e) { errorBox.textContent = String(e.message || e); });
  }
  call('serviceStatus').then(function (s) {
    document.getElementById('computer').textContent = s.name + ' {' + s.id + '} — version ' + s.version;
  }).catch(function (e) { errorBox.textContent = String(e.message || e); });
  refresh();
  var pending = null;
  function connect() {
    session.then(function (token) {
      var ws = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/api/v1/ws');
      ws.onopen = function () {
        ws.send(JSON.stringify({ type: 'auth', token: token }));
        ws.send(JSON.stringify({ type: 'subscribe' }));
      };
      ws.onmessage = function () { if (!pending) pending = setTimeout(function () { pending = null; refresh(); }, 250); };
      ws.onclose = function () { setTimeout(connect, 2000); };
    }, function () {});
  }
  connect();
})();
`;
