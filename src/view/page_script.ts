/**
 * The viewer page's script, as text the page inlines. Plain ES2017 that any
 * current browser runs; no template literals inside, so this file can hold it
 * in one.
 *
 * It parses the cassette lines embedded in the page once, pairs requests with
 * their answers, and draws only the timeline rows on screen (a 100,000-call
 * cassette is over 200,000 rows), re-drawing as the timeline scrolls.
 *
 * @module
 */

/** The page script. */
export const PAGE_SCRIPT = String.raw`(function () {
"use strict";
var ROW = 26, OVERSCAN = 12, MAX_PRETTY = 200000;
var meta = JSON.parse(document.getElementById("mc-meta").textContent);
var text = document.getElementById("mc-lines").textContent;
var raw = text.length > 0 ? text.split("\n") : [];
var frames = new Array(raw.length);
var byLine = {};
var lower = new Array(raw.length);
var tl = document.getElementById("tl");
var spacer = document.getElementById("spacer");
var rowsEl = document.getElementById("rows");
var detail = document.getElementById("detail");
var qEl = document.getElementById("q"), methodEl = document.getElementById("method");
var toolEl = document.getElementById("tool"), countEl = document.getElementById("count");
var controls = document.getElementById("controls"), mainEl = document.getElementById("main");
var view = [], selected = -1, hoverPair = -1, maxLat = 0;

function ms(v) {
  if (v >= 10000) return (v / 1000).toFixed(1) + " s";
  if (v >= 1000) return (v / 1000).toFixed(2) + " s";
  if (v >= 10) return Math.round(v) + " ms";
  return Math.round(v * 10) / 10 + " ms";
}
function lineNumbers() {
  var out = new Array(raw.length), jumps = meta.lineJumps, j = 0, line = 2;
  for (var i = 0; i < raw.length; i++) {
    if (j < jumps.length && jumps[j][0] === i) { line = jumps[j][1]; j++; }
    out[i] = line++;
  }
  return out;
}
function kindOf(msg) {
  if (Array.isArray(msg)) return "batch";
  if (!msg || typeof msg !== "object") return "invalid";
  if (typeof msg.method === "string") return "id" in msg && msg.id !== null ? "request" : "notification";
  if ("error" in msg) return "error";
  if ("result" in msg) return "answer";
  return "invalid";
}
function describe(f, e) {
  if (e.type === "message") {
    var msg = e.msg;
    f.kind = kindOf(msg);
    f.lane = e.dir === "c2s" ? "c" : "s";
    if (f.kind === "batch") { f.label = "batch of " + msg.length; return; }
    if (f.kind === "request" || f.kind === "notification") {
      f.method = msg.method; f.label = msg.method;
      if (f.kind === "request" && e.dir === "s2c") f.kind = "server-request";
      var p = msg.params;
      if (msg.method === "tools/call" && p && typeof p.name === "string") f.tool = p.name;
      else if (p && typeof p.uri === "string") f.detailText = p.uri;
      else if (p && typeof p.name === "string") f.detailText = p.name;
    }
    if (msg && typeof msg === "object" && "id" in msg) f.id = msg.id;
    return;
  }
  f.kind = e.type === "session" ? "session" : e.type === "raw" ? "raw" : "http";
  if (e.type === "session") {
    f.lane = "both";
    f.label = "session " + e.session + " " + e.event + (e.sessionId ? " (" + e.sessionId + ")" : "") +
      (e.exitCode !== undefined ? " exit " + e.exitCode : "") + (e.reason ? " " + e.reason : "");
  } else if (e.type === "raw") {
    f.lane = e.dir === "c2s" ? "c" : "s"; f.label = e.text.slice(0, 120);
  } else if (e.type === "http-request") {
    f.lane = "c"; f.label = e.method + " " + e.path;
  } else if (e.type === "http-response") {
    f.lane = "s"; f.label = "HTTP " + e.status + " " + e.body;
  } else if (e.type === "sse-event") {
    f.lane = "s"; f.label = "sse " + (e.sse && e.sse.event ? e.sse.event : "event") + " " + e.data.slice(0, 60);
  } else {
    f.lane = "s"; f.label = "end of body: " + e.reason;
  }
  if (e.x !== undefined) f.label += " \u00b7 x" + e.x;
}
function build() {
  var lines = lineNumbers(), open = {};
  for (var i = 0; i < raw.length; i++) {
    var e = JSON.parse(raw[i]);
    var f = { i: i, line: lines[i], t: e.t, s: e.session || "", pair: -1, lat: -1 };
    describe(f, e);
    if (e.x !== undefined) f.x = e.x;
    byLine[f.line] = i;
    frames[i] = f;
    if (f.id === undefined) continue;
    var asker = f.kind === "request" || f.kind === "server-request";
    var reqDir = asker ? (f.lane === "c" ? "c" : "s") : (f.lane === "c" ? "s" : "c");
    var key = f.s + "|" + reqDir + "|" + JSON.stringify(f.id);
    if (asker) { open[key] = i; continue; }
    var q = open[key];
    if (q === undefined) continue;
    delete open[key];
    var rq = frames[q];
    rq.pair = i; f.pair = q; rq.lat = f.t - rq.t;
    f.method = rq.method; f.tool = rq.tool; f.label = rq.method; f.detailText = rq.detailText;
    if (f.kind === "answer" && e.msg.result && e.msg.result.isError === true) f.kind = "error";
    if (rq.lat > maxLat) maxLat = rq.lat;
  }
  var rep = meta.report;
  if (!rep) return;
  var marks = { inexact: rep.inexact, repeated: rep.repeated, never: rep.never };
  var unlisted = {};
  rep.unlisted.forEach(function (l) { unlisted[l] = true; });
  for (var k in marks) marks[k].forEach(function (l) { if (byLine[l] !== undefined) frames[byLine[l]].status = k; });
  frames.forEach(function (fr) {
    if (fr.kind === "request" && fr.lane === "c" && !fr.status && !unlisted[fr.line]) fr.status = "played";
  });
}
var KIND_TEXT = { error: "error answer", "server-request": "request to the client", raw: "raw output", http: "HTTP entry", session: "event" };
var STATUS_TEXT = { played: "played", inexact: "inexact", repeated: "repeated", never: "never asked" };
var ARROW = { request: "\u2192", answer: "\u2190", error: "\u2190", "server-request": "\u21e0", notification: "\u2022", raw: "\u00b6", http: "\u2261", session: "\u25c6", batch: "\u2630", invalid: "?" };
// Every node is made here, and every recorded value enters the page as a text node
// or a property: the page never parses cassette data as markup.
function el(tag, cls, kids) {
  var n = document.createElement(tag);
  if (cls) n.className = cls;
  if (kids !== undefined) add(n, kids);
  return n;
}
function add(n, kids) {
  if (!Array.isArray(kids)) kids = [kids];
  for (var i = 0; i < kids.length; i++) {
    var k = kids[i];
    if (k === null || k === undefined || k === "") continue;
    n.appendChild(typeof k === "string" ? document.createTextNode(k) : k);
  }
  return n;
}
function frameLink(line, kids, cls) {
  var a = el("a", cls, kids);
  a.href = "#frame-" + Number(line);
  return a;
}
function chip(f) {
  var arrow = ARROW[f.kind] || "";
  var dirArrow = (f.kind === "answer" || f.kind === "error") && f.lane === "c" ? "\u2192" : arrow;
  var label = f.label || f.kind;
  var named = f.tool || (f.detailText ? f.detailText.slice(0, 60) : "");
  var id = f.id !== undefined ? "#" + JSON.stringify(f.id) : "";
  // What tells calls apart (the tool, the prompt, the URI) comes first: a narrow lane cuts the end.
  var c = el("span", "chip " + f.kind, dirArrow + " ");
  c.title = label + (named ? " " + named : "") + (id ? " " + id : "");
  if (named) add(c, [el("b", "", named), " ", el("i", "", label)]);
  else add(c, label);
  if (id) add(c, [" ", el("i", "", id)]);
  var out = [c];
  if (f.pair >= 0) {
    var other = frames[f.pair];
    var asks = f.kind === "request" || f.kind === "server-request";
    out.push(" ", frameLink(other.line, (asks ? "\u21b3 " : "\u21b0 ") + other.line, "pairlink"));
  } else if (f.kind === "request" || f.kind === "server-request") out.push(" ", el("span", "unanswered", "no answer"));
  return out;
}
function rowEl(f) {
  var partner = f.i === hoverPair || (selected >= 0 && frames[selected].pair === f.i);
  var row = el("div", "row k-" + f.kind + (f.i === selected ? " sel" : "") + (partner ? " hl" : ""));
  row.setAttribute("data-i", String(f.i));
  add(row, [frameLink(f.line, String(f.line), "ln"), el("span", "t", ms(f.t)), el("span", "ses", f.s || "default")]);
  if (f.lane === "both") add(row, el("span", "lane both", chip(f)));
  else add(row, [el("span", "lane c", f.lane === "c" ? chip(f) : undefined), el("span", "lane s", f.lane === "s" ? chip(f) : undefined)]);
  var lat = el("span", "lat");
  if (f.lat >= 0 && (f.kind === "request" || f.kind === "server-request")) {
    var w = maxLat > 0 ? Math.max(0.5, (f.lat / maxLat) * 100) : 0.5;
    var bar = el("span", "bar");
    bar.style.width = w.toFixed(2) + "%";
    add(lat, [bar, el("span", "latl", ms(f.lat))]);
  }
  return add(row, [lat, el("span", "st", f.status ? badge(f.status) : undefined)]);
}
function badge(status) {
  return el("span", "badge " + status, STATUS_TEXT[status]);
}
// The timeline and the frame fill the window below the controls, whose height depends on the width.
function fit() {
  mainEl.style.height = Math.max(420, window.innerHeight - controls.offsetHeight) + "px";
}
function render() {
  var top = tl.scrollTop, h = tl.clientHeight || 600;
  var start = Math.max(0, Math.floor(top / ROW) - OVERSCAN);
  var end = Math.min(view.length, Math.ceil((top + h) / ROW) + OVERSCAN);
  var out = document.createDocumentFragment();
  for (var k = start; k < end; k++) out.appendChild(rowEl(frames[view[k]]));
  rowsEl.style.transform = "translateY(" + start * ROW + "px)";
  rowsEl.textContent = "";
  rowsEl.appendChild(out);
}
var pending = false;
function schedule() {
  if (pending) return;
  pending = true;
  requestAnimationFrame(function () { pending = false; render(); });
}
function highlight(value) {
  var out = document.createDocumentFragment();
  var s = JSON.stringify(value, null, 2);
  if (s === undefined) return out;
  var cut = s.length > MAX_PRETTY;
  if (cut) s = s.slice(0, MAX_PRETTY);
  var re = /("(?:\\.|[^"\\])*")(\s*:)?|\b(?:true|false|null)\b|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/g;
  var last = 0, m;
  while ((m = re.exec(s)) !== null) {
    var cls = m[1] ? (m[2] ? "key" : "str") : (m[0] === "null" ? "null" : (m[0] === "true" || m[0] === "false") ? "bool" : "num");
    add(out, [s.slice(last, m.index), el("span", cls, m[1] || m[0]), m[2] || ""]);
    last = re.lastIndex;
  }
  add(out, s.slice(last));
  if (cut) add(out, ["\n", el("span", "muted", "\u2026 cut at " + MAX_PRETTY + " characters")]);
  return out;
}
function frameBlock(f, title) {
  var e = JSON.parse(raw[f.i]);
  return [el("h3", "", [title + " ", frameLink(f.line, "line " + f.line)]), el("pre", "json", highlight(e))];
}
function showDetail(i) {
  var f = frames[i];
  var who = f.lane === "c" ? "client" : f.lane === "s" ? "server" : "session";
  var when = "t = " + ms(f.t) + (f.s ? " \u00b7 session " + f.s : "") + (f.x !== undefined ? " \u00b7 HTTP exchange " + f.x : "");
  var head = el("div", "dhead", [el("b", "", who + " " + (KIND_TEXT[f.kind] || f.kind)), " " + (f.label || "")]);
  if (f.tool) add(head, [" ", el("b", "", f.tool)]);
  add(head, el("div", "muted", when));
  if (f.pair >= 0) {
    var p = frames[f.pair];
    add(head, el("div", "", [(f.lat >= 0 ? "answered in " + ms(f.lat) + " at " : "answers "), frameLink(p.line, "line " + p.line)]));
  }
  if (f.status) add(head, el("div", "", ["report: ", badge(f.status)]));
  detail.textContent = "";
  add(detail, [head].concat(frameBlock(f, "frame")));
  if (f.pair >= 0) add(detail, frameBlock(frames[f.pair], f.lat >= 0 ? "its answer" : "its request"));
  document.body.classList.add("has-detail");
  detail.scrollTop = 0;
}
function select(i, scroll) {
  selected = i;
  var pos = view.indexOf(i);
  if (pos < 0 && (qEl.value || methodEl.value || toolEl.value)) {
    qEl.value = ""; methodEl.value = ""; toolEl.value = ""; applyFilter(); pos = view.indexOf(i);
  }
  if (scroll && pos >= 0) {
    var y = pos * ROW;
    if (y < tl.scrollTop || y > tl.scrollTop + tl.clientHeight - ROW) tl.scrollTop = Math.max(0, y - tl.clientHeight / 3);
  }
  showDetail(i);
  render();
}
function fromHash() {
  var m = /^#frame-(\d+)$/.exec(location.hash);
  if (!m) return;
  var i = byLine[Number(m[1])];
  if (i !== undefined) { select(i, true); controls.scrollIntoView({ block: "start" }); }
}
function textOf(i) {
  if (lower[i] === undefined) lower[i] = raw[i].replace(/<\\\//g, "</").toLowerCase();
  return lower[i];
}
function applyFilter() {
  var q = qEl.value.trim().toLowerCase(), m = methodEl.value, tool = toolEl.value;
  view = [];
  for (var i = 0; i < frames.length; i++) {
    var f = frames[i];
    if (m && f.method !== m) continue;
    if (tool && f.tool !== tool) continue;
    if (q && textOf(i).indexOf(q) < 0) continue;
    view.push(i);
  }
  spacer.style.height = view.length * ROW + "px";
  countEl.textContent = view.length === frames.length ? frames.length + " frames" : view.length + " of " + frames.length + " frames";
  render();
}
function options(el, values) {
  values.sort().forEach(function (v) {
    var o = document.createElement("option"); o.value = v; o.textContent = v; el.appendChild(o);
  });
}
function wire() {
  var methods = {}, tools = {};
  frames.forEach(function (f) { if (f.method) methods[f.method] = 1; if (f.tool) tools[f.tool] = 1; });
  options(methodEl, Object.keys(methods));
  options(toolEl, Object.keys(tools));
  tl.addEventListener("scroll", schedule, { passive: true });
  window.addEventListener("resize", function () { fit(); schedule(); });
  var timer = 0;
  qEl.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(applyFilter, frames.length > 20000 ? 200 : 60); });
  methodEl.addEventListener("change", applyFilter);
  toolEl.addEventListener("change", applyFilter);
  rowsEl.addEventListener("click", function (ev) {
    var row = ev.target.closest(".row");
    if (!row || ev.target.closest("a")) return;
    var i = Number(row.getAttribute("data-i"));
    history.replaceState(null, "", "#frame-" + frames[i].line);
    select(i, false);
  });
  rowsEl.addEventListener("mouseover", function (ev) {
    var row = ev.target.closest(".row");
    var p = row ? frames[Number(row.getAttribute("data-i"))].pair : -1;
    if (p !== hoverPair) { hoverPair = p; render(); }
  });
  document.querySelectorAll("#stats tr[data-method], #stats tr[data-tool]").forEach(function (tr) {
    tr.addEventListener("click", function () {
      methodEl.value = tr.getAttribute("data-method") || "";
      toolEl.value = tr.getAttribute("data-tool") || "";
      applyFilter();
      controls.scrollIntoView({ block: "start" });
    });
  });
  tl.addEventListener("keydown", function (ev) {
    if (ev.key !== "ArrowDown" && ev.key !== "ArrowUp") return;
    var pos = view.indexOf(selected) + (ev.key === "ArrowDown" ? 1 : -1);
    if (pos < 0 || pos >= view.length) return;
    ev.preventDefault();
    history.replaceState(null, "", "#frame-" + frames[view[pos]].line);
    select(view[pos], true);
  });
  window.addEventListener("hashchange", fromHash);
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "/" || document.activeElement === qEl) return;
    ev.preventDefault();
    qEl.focus();
  });
}
build();
if (meta.sessions <= 1) document.body.classList.add("one-session");
if (!meta.report) document.body.classList.add("no-report");
fit();
wire();
applyFilter();
fromHash();
document.body.setAttribute("data-ready", "true");
if (window.performance && performance.mark) performance.mark("mc-timeline-ready");
})();`;
