"use strict";
// The page of `t400 serve`: every answer comes from the JSON API (/api/...), which answers
// exactly what `t400 COMMAND --json` prints for the same options. Every word the page shows
// comes from the message catalogue (/api/messages), in English or Arabic.

const SUITS = [["S", "\u2660"], ["H", "\u2665"], ["D", "\u2666"], ["C", "\u2663"]];
const RANKS = "AKQJT98765432";
const selected = new Set();
const $ = (id) => document.getElementById(id);

// ---- languages ----------------------------------------------------------------------------

let CATALOGUE = {en: {}, ar: {}};
let LANG = "en";
const LANG_KEY = "t400-lang";

// A parameter inside an Arabic sentence is isolated, left to right unless it is Arabic itself,
// so that "+2.35", "60%", "3.76 ± 0.02" and "AKQ5.KJ4" read as they do in English.
function isolate(value) {
  const text = String(value);
  if (LANG !== "ar" || !text) return text;
  return /[\u0600-\u06ff]/.test(text) ? `\u2068${text}\u2069` : `\u2066${text}\u2069`;
}

function has(key) { return key in (CATALOGUE[LANG] || {}) || key in CATALOGUE.en; }

function t(key, params = {}) {
  const template = (CATALOGUE[LANG] || {})[key] ?? CATALOGUE.en[key] ?? key;
  return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? isolate(params[name]) : m));
}

// A call as the reader says it: "pass", "8H" in English; "باص", "8 كبة" in Arabic.
function callText(call) {
  if (LANG === "en" || call === null || call === undefined) return call;
  if (call === "pass" || call === "double") return t(`word.${call}`);
  const m = /^(\d+)(S|H|D|C|NT)?$/.exec(call);
  return m ? (m[2] ? `${m[1]} ${t(`strain.${m[2]}`)}` : m[1]) : call;
}

// A preset's name as the reader says it (the option's value stays the name the API takes).
function variantText(name) { return has(`variant.${name}`) ? t(`variant.${name}`) : name; }

// A strain letter as a column shows it: the letter in English, the suit's name in Arabic.
function strainText(letter) { return LANG === "en" || !letter ? letter : t(`strain.${letter}`); }

const WORD_LETTER = {spades: "S", hearts: "H", diamonds: "D", clubs: "C", none: "NT"};

// A reason from the API (key, params, English text) in the reader's language.
function reasonText(reason) {
  if (LANG === "en" || !has(reason.key)) return reason.text;
  const params = {...reason.params};
  if (params.strain in WORD_LETTER) params.strain = t(`strain.${WORD_LETTER[params.strain]}`);
  for (const name of ["call", "level", "contract"]) if (name in params) params[name] = callText(String(params[name]));
  return t(reason.key, params);
}

// A sentence of an answer (a note, a warning, a rule): the API's English, or the same sentence
// from the catalogue by the key the answer gives it in its "said" object (by where it stands).
function saidText(r, path, english) {
  const said = (r.said || {})[path];
  if (LANG === "en" || !said || !has(said.key)) return String(english);
  const params = {...said.params};
  if (params.policy && has(`policy.${params.policy}`)) params.policy = t(`policy.${params.policy}`);
  return t(said.key, params);
}

class PageError extends Error {
  constructor(key, params = {}, detail = null) {
    super(detail ?? key);
    this.key = key;
    this.params = params;
    this.detail = detail;  // the server's English line, without "Error: "
  }
}

function errorText(e) {
  if (e.key && has(e.key)) return t("ui.error", {text: t(e.key, e.params)});
  const text = String(e.detail ?? e.message).replace(/^Error: /, "");
  return t("ui.error", {text});
}

// What each box shows, kept so that a change of language says it again.
const shownErrors = {};
function showError(id, e) {
  shownErrors[id] = e;
  $(id).textContent = e ? errorText(e) : "";
}

const redraw = {};  // the answers on show, by page: a function that draws each again

function applyStatic() {
  document.querySelectorAll("[data-t]").forEach((node) => { node.textContent = t(node.dataset.t, {n: node.dataset.n}); });
  for (const attr of ["placeholder", "title", "aria-label"]) {
    const data = `data-t-${attr}`;
    document.querySelectorAll(`[${data}]`).forEach((node) => node.setAttribute(attr, t(node.getAttribute(data))));
  }
  document.title = t("ui.title");
}

function setLanguage(lang, remember = false) {
  LANG = lang === "ar" ? "ar" : "en";
  document.documentElement.lang = LANG;
  document.documentElement.dir = LANG === "ar" ? "rtl" : "ltr";
  if (remember) { try { localStorage.setItem(LANG_KEY, LANG); } catch (e) { /* private mode: not remembered */ } }
  applyStatic();
  renderPicker();
  renderEarlier();
  for (const [id, e] of Object.entries(shownErrors)) if (e) $(id).textContent = errorText(e);
  fillMenus();
  Object.values(redraw).forEach((draw) => draw());
  if ($("page-rules").classList.contains("active")) loadRules();
}

// ?lang= in the address, else the reader's last choice, else the browser's language.
function firstLanguage() {
  const asked = new URLSearchParams(window.location.search).get("lang");
  if (asked === "ar" || asked === "en") return asked;
  try {
    const saved = localStorage.getItem(LANG_KEY);
    if (saved === "ar" || saved === "en") return saved;
  } catch (e) { /* no storage */ }
  return (navigator.languages || [navigator.language || ""]).some((l) => /^ar\b/i.test(l)) ? "ar" : "en";
}

$("lang").addEventListener("click", () => setLanguage(LANG === "ar" ? "en" : "ar", true));

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (e) { data = {}; }
  if (!response.ok) {
    if (!data.error) throw new PageError("err.server", {status: response.status});
    throw new PageError(data.key || null, data.params || {}, data.error.replace(/^Error: /, ""));
  }
  return data;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v; else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

// ---- tabs -------------------------------------------------------------------------------

function showPage(name) {
  document.querySelectorAll(".page").forEach((p) => p.classList.toggle("active", p.id === `page-${name}`));
  document.querySelectorAll(".tab").forEach((t) => t.classList.toggle("active", t.dataset.page === name));
  if (name === "rules") loadRules();
}
document.querySelectorAll(".tab").forEach((t) => t.addEventListener("click", () => showPage(t.dataset.page)));

// ---- the card picker ----------------------------------------------------------------------

function renderPicker() {
  const picker = $("picker");
  picker.replaceChildren();
  for (const [s, symbol] of SUITS) {
    const name = t(`strain.${s}`);
    const row = el("div", {class: `suit-row suit-${s}`}, el("span", {class: "suit-label", title: name}, symbol));
    for (const r of RANKS) {
      const card = s + r;
      const rank = r === "T" ? "10" : r;
      const button = el("button", {type: "button", class: "card", "data-card": card, title: t("bid.card_title", {rank, suit: name})}, rank);
      button.addEventListener("click", () => toggleCard(card));
      row.append(button);
    }
    picker.append(row);
  }
  syncPicker();
}

function toggleCard(card) {
  showError("hand-error", null);
  if (selected.has(card)) selected.delete(card);
  else if (selected.size >= 13) { showError("hand-error", new PageError("err.thirteen_cards")); return; }
  else selected.add(card);
  syncPicker();
  $("hand-text").value = selected.size ? handDot() : "";
}

function syncPicker() {
  document.querySelectorAll(".card").forEach((b) => b.classList.toggle("picked", selected.has(b.dataset.card)));
  $("card-count").textContent = t("bid.card_count", {n: selected.size});
}

function handDot() {
  return SUITS.map(([s]) => [...RANKS].filter((r) => selected.has(s + r)).join("") || "-").join(".");
}

async function readHand() {
  showError("hand-error", null);
  const text = $("hand-text").value.trim();
  if (!text) return;
  try {
    const data = await api("/api/hand", {hand: text});
    selected.clear();
    data.cards.forEach((c) => selected.add(c));
    syncPicker();
  } catch (e) { showError("hand-error", e); }
}
$("read-hand").addEventListener("click", readHand);
$("hand-text").addEventListener("keydown", (e) => { if (e.key === "Enter") { e.preventDefault(); readHand(); } });
$("hand-text").addEventListener("change", readHand);
$("clear-hand").addEventListener("click", () => { selected.clear(); $("hand-text").value = ""; syncPicker(); });

// ---- the question -----------------------------------------------------------------------

function renderEarlier() {
  const seat = Number($("seat").value);
  const box = $("earlier-bids");
  const before = [...box.querySelectorAll("input")].map((i) => i.value);
  box.replaceChildren();
  for (let s = 1; s < seat; s++) {
    box.append(el("label", {}, `${t("ui.seat_n", {n: s})} `, el("input", {type: "number", id: `earlier-${s}`, min: "2", max: "13", value: before[s - 1] || ""})));
  }
  $("no-earlier").hidden = seat > 1;
}
$("seat").addEventListener("change", renderEarlier);

function number(id) {
  const v = $(id).value.trim();
  return v === "" ? null : Number(v);
}

function bidBody() {
  const seat = Number($("seat").value);
  const body = {hand: handDot(), seat, scores: [1, 2, 3, 4].map((s) => number(`score-${s}`) ?? 0)};
  if (seat > 1) {
    const bids = [];
    for (let s = 1; s < seat; s++) {
      const b = number(`earlier-${s}`);
      if (b === null) throw new PageError("err.earlier_bid", {seat: s});
      bids.push(b);
    }
    body.bids = bids;
    if (!$("infer").checked) body.infer = false;
  }
  if ($("variant").value) body.variant = $("variant").value;
  for (const [id, key] of [["objective", "objective"], ["score-table", "score_table"], ["tie-break", "tie_break"], ["redeal", "redeal"]]) {
    if ($(id).value) body[key] = $(id).value;
  }
  if ($("model").value !== "rollout") body.model = $("model").value;
  if ($("policy").value !== "standard") body.policy = $("policy").value;
  for (const [id, key] of [["samples", "samples"], ["target", "target"], ["table-min", "table_min"]]) {
    const v = number(id);
    if (v !== null) body[key] = v;
  }
  body.seed = number("seed") ?? 0;
  for (const [id, key] of [["fixed-table-min", "fixed_table_min"], ["fixed-min-bid", "fixed_min_bid"]]) {
    if ($(id).value) body[key] = $(id).value === "true";
  }
  return body;
}

// The option a `false` switch stands for on the command line.
const NEGATIVE = {infer: "--no-infer", fixed_table_min: "--rising-table-min", fixed_min_bid: "--rising-min-bid"};

function shellWord(text) {
  return /^[A-Za-z0-9.,:_\/-]+$/.test(text) ? text : `'${text.replace(/'/g, "'\\''")}'`;
}

function commandLine(command, body, positional) {
  const words = ["t400", command];
  if (positional) words.push(shellWord(body[positional]));
  for (const [key, value] of Object.entries(body)) {
    if (key === positional) continue;
    const option = `--${key.replace(/_/g, "-")}`;
    if (value === true) words.push(option);
    else if (value === false) words.push(NEGATIVE[key] || "");
    else words.push(option, shellWord(Array.isArray(value) ? value.join(",") : String(value)));
  }
  return words.filter(Boolean).join(" ");
}

let polling = null;

// prefix "" for the bid page's progress bar, "call-" for the Tarneeb page's
function startProgress(prefix = "") {
  const box = $(prefix ? `${prefix}progress` : "bid-progress"), bar = $(`${prefix}progress-bar`), text = $(`${prefix}progress-text`);
  box.hidden = false;
  bar.removeAttribute("value");
  text.textContent = t("progress.starting");
  polling = setInterval(async () => {
    try {
      const s = await api("/api/status");
      if (!s.busy) return;
      if (s.compiling) {
        bar.removeAttribute("value");
        text.textContent = t("progress.compiling", {s: s.elapsed_s.toFixed(0), expected: s.compile_expected_s ?? "?"});
      } else {
        bar.max = Math.max(s.total, 1);
        bar.value = s.done;
        text.textContent = t("progress.sampling", {pct: Math.round(100 * s.done / Math.max(s.total, 1)), s: s.elapsed_s.toFixed(1)});
      }
    } catch (e) { /* the answer itself reports errors */ }
  }, 250);
}

function stopProgress(prefix = "") {
  clearInterval(polling);
  $(prefix ? `${prefix}progress` : "bid-progress").hidden = true;
}

$("bid-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("bid-error", null);
  if (selected.size !== 13) { showError("bid-error", new PageError("err.pick_13", {n: selected.size})); return; }
  let body;
  try { body = bidBody(); } catch (e) { showError("bid-error", e); return; }
  $("ask").disabled = true;
  startProgress();
  try {
    const result = await api("/api/bid", body);
    showBid(result, body);
    shareLink(body);
  } catch (e) {
    showError("bid-error", e);
  } finally {
    stopProgress();
    $("ask").disabled = false;
  }
});

// ---- the answer -------------------------------------------------------------------------

function pct(p, se, digits = 1) {
  if (p === null || p === undefined) return "-";
  const text = `${(100 * p).toFixed(digits)}%`;
  return se === null || se === undefined || se === 0 ? text : `${text} \u00b1 ${(100 * se).toFixed(digits)}`;
}

function signed(x, digits = 2) { return `${x >= 0 ? "+" : ""}${Number(x).toFixed(digits)}`; }

function showBid(r, body) {
  redraw.bid = () => showBid(r, body);
  const win = r.objective === "win";
  const best = r.bids.find((row) => row.bid === r.recommended);
  $("recommended-bid").textContent = r.recommended;
  const parts = [win ? t("result.p_win", {p: pct(best.p_win, best.p_win_se, 2)}) : t("result.ev", {ev: signed(best.ev)})];
  if (r.tied_bids.length > 1) parts.push(t("result.tied", {bids: r.tied_bids.join(", ")}));
  else if (r.warning) parts.push(t("result.uncertain"));
  else {
    parts.push(t("result.p_best", {p: (100 * r.p_best).toFixed(0)}));
    if (r.runner_up !== null) {
      parts.push(win
        ? t("result.margin_win", {margin: `${signed(100 * r.p_win_margin)} \u00b1 ${(100 * r.p_win_margin_se).toFixed(2)}`, bid: r.runner_up})
        : t("result.margin_points", {margin: `${signed(r.ev_margin)} \u00b1 ${r.ev_margin_se.toFixed(2)}`, bid: r.runner_up}));
    }
  }
  $("confidence").textContent = parts.join(t("ui.list_sep"));
  $("reasons").replaceChildren(...r.reasons.map((x) => el("li", {"data-key": x.key}, reasonText(x))));
  $("objective-note").textContent = objectiveText(r.objective, body.objective);
  $("notes").textContent = [r.note && t("result.note", {text: saidText(r, "note", r.note)}),
    r.warning && t("result.warning", {text: saidText(r, "warning", r.warning)})].filter(Boolean).join(" ");
  const spread = r.tricks_mean_se === null ? "" : ` \u00b1 ${r.tricks_mean_se.toFixed(2)}`;
  $("chart-title").textContent = t("bid.chart_title", {bid: r.tricks_for_bid, mean: `${r.tricks_mean.toFixed(2)}${spread}`});
  drawChart(r);
  drawTable(r, win);
  const killers = r.killing_bids;
  $("killing").textContent = killers.length ? t(killers.length > 1 ? "bid.kills_many" : "bid.kills_one", {bids: killers.join(", ")}) : "";
  const model = r.model === "rollout" ? t("model.rollout", {policy: t(`policy.${r.policy}`)}) : t(r.model === "dd" ? "model.dd" : "model.solo");
  $("sample-line").textContent = t("bid.sample_line", {model, n: r.samples.toLocaleString("en"), seed: r.seed, s: r.elapsed_s.toFixed(2)}) +
    (r.precision_target_met ? "" : t("ui.list_sep") + t("bid.precision_missed"));
  $("command").textContent = commandLine("bid", body, "hand");
  $("bid-result").hidden = false;
}

// The objective in words: the one asked for, or the automatic choice and why.
function objectiveText(objective, asked) {
  return t("result.objective", {objective: t(asked ? `ui.objective_${objective}` : `result.objective_${objective}_auto`)});
}

function drawChart(r) {
  const W = 560, H = 230, left = 36, bottom = 28, top = 16;
  const probs = r.tricks.map((p) => p || 0);
  const highest = Math.max(...probs, 0.01);
  const step = [0.01, 0.02, 0.05, 0.1, 0.2, 0.25].find((s) => highest / s <= 5) || 0.25;
  const peak = step * Math.ceil(highest / step - 1e-9);
  const slot = (W - left - 8) / 14;
  const svgNS = "http://www.w3.org/2000/svg";
  const svg = document.createElementNS(svgNS, "svg");
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  svg.setAttribute("role", "img");
  svg.setAttribute("direction", "ltr");
  svg.setAttribute("aria-label", t("bid.chart_label"));
  const add = (tag, attrs, text) => {
    const node = document.createElementNS(svgNS, tag);
    for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
    if (text !== undefined) node.textContent = text;
    svg.append(node);
    return node;
  };
  const y = (p) => H - bottom - (H - bottom - top) * p / peak;
  add("line", {x1: left, y1: H - bottom, x2: W, y2: H - bottom, class: "axis"});
  for (let level = step; level <= peak + 1e-9; level += step) {
    add("line", {x1: left, y1: y(level), x2: W, y2: y(level), class: "grid"});
    add("text", {x: left - 4, y: y(level) + 4, class: "tick", "text-anchor": "end"}, `${Math.round(100 * level)}%`);
  }
  probs.forEach((p, k) => {
    const x = left + k * slot + 2;
    const made = k >= r.recommended;
    add("rect", {x, y: y(p), width: slot - 4, height: H - bottom - y(p), class: made ? "bar made" : "bar",
                 "data-tricks": k, "data-p": p}).append(Object.assign(document.createElementNS(svgNS, "title"), {textContent: t("bid.chart_bar", {k, p: pct(p, r.tricks_se[k])})}));
    add("text", {x: x + (slot - 4) / 2, y: H - bottom + 16, class: "tick", "text-anchor": "middle"}, String(k));
    if (p >= 0.005) add("text", {x: x + (slot - 4) / 2, y: y(p) - 3, class: "value", "text-anchor": "middle"}, `${(100 * p).toFixed(0)}`);
  });
  // the legend reads in the page's direction, its right end at the chart's right edge either way
  add("text", {x: W - 4, y: top, class: "legend", direction: LANG === "ar" ? "rtl" : "ltr", "text-anchor": LANG === "ar" ? "start" : "end"},
    t("bid.chart_legend", {bid: r.recommended}));
  $("chart").replaceChildren(svg);
}

function headRow(keys) { return el("tr", {}, ...keys.map((k) => el("th", {}, k.startsWith("col.") ? t(k) : k))); }

function drawTable(r, win) {
  const heads = ["col.bid", "col.value", "col.p_make", "col.p_dead", "col.ev", ...(win ? ["col.p_win"] : []), "col.p_best"];
  $("bid-table").querySelector("thead").replaceChildren(headRow(heads));
  const rows = r.bids.map((row) => {
    const cells = [String(row.bid), String(row.value), pct(row.p_make, row.p_make_se), pct(row.p_dead, null),
      `${signed(row.ev)} \u00b1 ${row.ev_se.toFixed(2)}`, ...(win ? [pct(row.p_win, row.p_win_se, 2)] : []), pct(row.p_best, null, 0)];
    const tr = el("tr", {"data-bid": row.bid}, ...cells.map((c) => el("td", {dir: "ltr"}, c)));
    if (row.bid === r.recommended) tr.classList.add("recommended");
    if (r.killing_bids.includes(row.bid)) tr.classList.add("killing");
    return tr;
  });
  $("bid-table").querySelector("tbody").replaceChildren(...rows);
}

// ---- Tarneeb: what to call ----------------------------------------------------------------

async function showCallHand() {
  $("call-hand-shown").textContent = "";
  const text = $("call-hand").value.trim();
  if (!text) return;
  try {
    const data = await api("/api/hand", {hand: text});
    $("call-hand-shown").textContent = t("call.hand_shown", {symbols: data.symbols, n: data.count});
  } catch (e) { $("call-hand-shown").textContent = errorText(e); }
}
$("call-hand").addEventListener("change", showCallHand);

// The calls as typed, in either language: "باص" or "باس" is pass, "دبل" double.
const CALL_WORDS = {"\u0628\u0627\u0635": "pass", "\u0628\u0627\u0633": "pass", "\u062f\u0628\u0644": "double"};

function callBody() {
  const hand = $("call-hand").value.trim();
  if (!hand) throw new PageError("err.type_hand");
  const body = {game: "tarneeb", hand, seat: Number($("call-seat").value), variant: $("call-variant").value};
  const auction = $("call-auction").value.split(/[,\u060c]/).map((c) => c.trim()).filter(Boolean).map((c) => CALL_WORDS[c] || c);
  if (auction.length) body.auction = auction;
  const scores = [number("call-score-1") ?? 0, number("call-score-2") ?? 0];
  if (scores.some((x) => x !== 0)) body.scores = scores;
  if ($("call-objective").value) body.objective = $("call-objective").value;
  if ($("call-model").value !== "rollout") body.model = $("call-model").value;
  const samples = number("call-samples");
  if (samples !== null) body.samples = samples;
  body.seed = number("call-seed") ?? 0;
  if (auction.length && !$("call-infer").checked) body.infer = false;
  return body;
}

$("call-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("call-error", null);
  let body;
  try { body = callBody(); } catch (e) { showError("call-error", e); return; }
  $("call-ask").disabled = true;
  startProgress("call-");
  try {
    showCall(await api("/api/bid", body), body);
    shareLink(body, "call-");
  } catch (e) {
    showError("call-error", e);
  } finally {
    stopProgress("call-");
    $("call-ask").disabled = false;
  }
});

function showCall(r, body) {
  redraw.call = () => showCall(r, body);
  const win = r.objective === "win";
  const best = r.calls.find((c) => c.call === r.recommended);
  $("recommended-call").textContent = r.trump ? t("call.naming", {call: callText(r.recommended), trump: strainText(r.trump)}) : callText(r.recommended);
  const parts = [win ? t("result.p_win", {p: pct(best.p_win, best.p_win_se, 2)}) : t("result.ev", {ev: `${signed(best.ev)} \u00b1 ${best.ev_se.toFixed(2)}`}),
    t("result.p_best", {p: (100 * r.p_best).toFixed(0)})];
  if (r.p_win_now !== null) parts.push(t("call.p_win_now", {p: pct(r.p_win_now, null, 1)}));
  $("call-confidence").textContent = parts.join(t("ui.list_sep"));
  $("call-objective-note").textContent = objectiveText(r.objective, body.objective);
  $("call-reasons").replaceChildren(...r.reasons.map((x) => el("li", {"data-key": x.key}, reasonText(x))));
  const ks = [7, 8, 9, 10, 11, 12, 13];
  $("strain-table").querySelector("thead").replaceChildren(headRow(["col.strain", "col.mean", ...ks.map((k) => `\u2265${k}`)]));
  $("strain-table").querySelector("tbody").replaceChildren(...Object.entries(r.strains).map(([letter, s]) => {
    const atLeast = (k) => s.tricks.slice(k).reduce((a, b) => a + b, 0);
    return el("tr", {"data-strain": letter}, el("td", {}, strainText(letter)), el("td", {dir: "ltr"}, `${s.mean.toFixed(2)} \u00b1 ${s.mean_se.toFixed(2)}`),
      ...ks.map((k) => el("td", {dir: "ltr"}, pct(atLeast(k), null, 1))));
  }));
  const heads = ["col.call", "col.trump", "col.ends", "col.made", "col.declares", "col.ev", ...(win ? ["col.p_win"] : [])];
  $("call-table").querySelector("thead").replaceChildren(headRow(heads));
  $("call-table").querySelector("tbody").replaceChildren(...r.calls.map((c) => {
    const ends = c.p_ends > 0;
    const cells = [ends ? pct(c.p_ends, c.p_ends_se) : "-", ends ? pct(c.p_make, c.p_make_se) : "-",
      pct(c.p_declare, null), `${signed(c.ev)} \u00b1 ${c.ev_se.toFixed(2)}`, ...(win ? [pct(c.p_win, c.p_win_se, 2)] : [])];
    const tr = el("tr", {"data-call": c.call}, el("td", {}, callText(c.call)), el("td", {}, strainText(c.trump) || "-"),
      ...cells.map((x) => el("td", {dir: "ltr"}, x)));
    if (c.call === r.recommended) tr.classList.add("recommended");
    return tr;
  }));
  $("call-notes").textContent = [t("call.notes", {n: r.samples.toLocaleString("en"), e: Math.round(r.effective_samples).toLocaleString("en"),
    seed: r.seed, s: r.elapsed_s.toFixed(2)}), ...r.notes.map((n, i) => saidText(r, `notes.${i}`, n))].join(" ");
  $("call-command").textContent = commandLine("bid", body, "hand");
  $("call-result").hidden = false;
}

// ---- score a round ----------------------------------------------------------------------

let META = null;

function fillVariants(select, game) {
  const presets = META.games[game].presets;
  const chosen = select.value;
  select.replaceChildren(...Object.entries(presets).map(([name, text]) => el("option", {value: name, title: text}, variantText(name))));
  if (chosen && presets[chosen] !== undefined) select.value = chosen;
  else if (game === "tarneeb") select.value = "tarneeb";
}

$("score-game").addEventListener("change", () => {
  const tarneeb = $("score-game").value === "tarneeb";
  $("score-tarneeb").hidden = !tarneeb;
  $("score-400").hidden = tarneeb;
  fillVariants($("score-variant"), $("score-game").value);
  $("score-result").replaceChildren();
  delete redraw.score;
});

const change = (d) => `${d >= 0 ? "+" : ""}${d}`;

function winnerLine(r) {
  if (r.winner) return t("score.winner", {a: r.winner[0], b: r.winner[1], reason: r.reason});
  if (r.draw) return t("score.draw", {reason: r.reason});
  return r.reason ? t("score.no_winner_reason", {reason: r.reason}) : t("score.no_winner");
}

function showTarneebScore(r) {
  redraw.score = () => showTarneebScore(r);
  const head = headRow(["", "col.before", "col.change", "col.after"]);
  const rows = ["1+3", "2+4"].map((team, i) => el("tr", {}, el("th", {}, t("score.seats", {team})), el("td", {}, String(r.scores_before[i])),
    el("td", {dir: "ltr"}, change(r.deltas[i])), el("td", {}, String(r.scores[i]))));
  const contract = `${r.bid}${r.trump ? " " + strainText(r.trump) : ""}${r.doubled ? " " + t("word.doubled") : ""}`;
  const lines = [t(r.made ? "score.t_made" : "score.t_failed", {contract, seat: r.declarer, tricks: r.tricks,
    kaboot: r.kaboot ? ` (${t("word.kaboot")})` : ""}), winnerLine(r)];
  $("score-result").replaceChildren(el("table", {id: "score-table-result"}, el("thead", {}, head), el("tbody", {}, ...rows)),
    ...lines.map((l) => el("p", {}, l)));
}

function show400Score(r) {
  redraw.score = () => show400Score(r);
  const head = headRow(["", "col.before", "col.bid", "col.value", "col.tricks", "col.result", "col.change", "col.after"]);
  const rows = [0, 1, 2, 3].map((i) => el("tr", {},
    el("th", {}, t("ui.seat_n", {n: i + 1})), el("td", {}, String(r.scores_before[i])), el("td", {}, String(r.bids[i])),
    el("td", {}, String(r.values[i])), el("td", {}, r.tricks ? String(r.tricks[i]) : "-"),
    el("td", {}, r.made === null ? "-" : t(r.made[i] ? "score.made" : "score.set")),
    el("td", {dir: "ltr"}, change(r.deltas[i])), el("td", {}, String(r.scores[i]))));
  const total = r.bids.reduce((a, b) => a + b, 0);
  const lines = [r.dead
    ? t(r.dealer_advances ? "score.dead_next" : "score.dead_same", {total, min: r.table_minimum})
    : t("score.total", {total, min: r.table_minimum}), winnerLine(r)];
  $("score-result").replaceChildren(el("table", {id: "score-table-result"}, el("thead", {}, head), el("tbody", {}, ...rows)),
    ...lines.map((l) => el("p", {}, l)));
}

$("score-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("score-error", null);
  try {
    if ($("score-game").value === "tarneeb") {
      const body = {game: "tarneeb", variant: $("score-variant").value, scores: [number("t-score-1") ?? 0, number("t-score-2") ?? 0],
                    declarer: Number($("t-declarer").value), bid: number("t-bid"), tricks: number("t-tricks")};
      if ($("t-trump").value) body.trump = $("t-trump").value;
      if ($("t-doubled").checked) body.doubled = true;
      showTarneebScore(await api("/api/score", body));
      return;
    }
    const four = (name) => [1, 2, 3, 4].map((s) => number(`s-${name}-${s}`));
    const body = {scores: four("score").map((v) => v ?? 0), bids: four("bid"), variant: $("score-variant").value};
    const tricks = four("tricks");
    if (tricks.some((x) => x !== null)) body.tricks = tricks;
    show400Score(await api("/api/score", body));
  } catch (e) { showError("score-error", e); }
});

// ---- review a hand -------------------------------------------------------------------------

const SUIT_OF = Object.fromEntries(SUITS);
const cardText = (c) => SUIT_OF[c[0]] + (c[1] === "T" ? "10" : c[1]);

function lossText(loss, se, objective) {
  return objective === "win" ? t("review.loss_win", {loss: `${(100 * loss).toFixed(2)} \u00b1 ${(100 * se).toFixed(2)}`})
    : t("review.loss_points", {loss: `${loss.toFixed(2)} \u00b1 ${se.toFixed(2)}`});
}

function reviewTables(r) {
  const out = [el("p", {}, t("review.header", {game: t(`game.${r.game}`), variant: r.variant, seed: r.seed, s: r.elapsed_s.toFixed(1)}))];
  const verdictCell = (v) => el("td", {class: `verdict-${v.replace(" ", "-")}`, "data-verdict": v}, t(`verdict.${v}`));
  const loss = (x) => el("td", {}, x.verdict === "best" ? "" : lossText(x.loss, x.loss_se, x.objective));
  if (r.game === "400") {
    out.push(el("h3", {}, t("review.bidding")));
    out.push(el("table", {id: "review-bids"}, el("thead", {}, headRow(["col.seat", "col.hand", "col.bids_before", "col.bid", "col.best", "col.loss", "col.verdict"])),
      el("tbody", {}, ...r.bidding.map((b) => el("tr", {class: b.verdict === "costly" ? "costly" : ""},
        el("th", {}, String(b.seat)), el("td", {dir: "ltr"}, b.hand), el("td", {}, b.bids_before.join(",") || "-"),
        el("td", {}, String(b.bid)), el("td", {}, String(b.recommended)), loss(b), verdictCell(b.verdict))))));
  } else {
    out.push(el("h3", {}, t("review.calls")));
    out.push(el("table", {id: "review-bids"}, el("thead", {}, headRow(["col.call", "col.seat", "col.calls_before", "col.called", "col.best", "col.loss", "col.verdict"])),
      el("tbody", {}, ...r.calling.map((c) => el("tr", {class: c.verdict === "costly" ? "costly" : ""},
        el("th", {}, String(c.call_number)), el("td", {}, String(c.seat)), el("td", {}, c.calls_before.map(callText).join(",") || "-"),
        el("td", {}, callText(c.call)), el("td", {}, callText(c.recommended)), loss(c), verdictCell(c.verdict))))));
    if (r.contract) {
      out.push(el("p", {}, t(r.contract.doubled ? "review.contract_doubled" : "review.contract",
        {seat: r.contract.declarer, bid: r.contract.bid, trump: strainText(r.contract.trump) || "?"})));
    }
  }
  if (r.cards.length) {
    const unit = t(r.game === "400" ? "unit.points" : "unit.tricks");
    const firsts = new Set(r.summary.players.filter((p) => p.first_costly).map((p) => `${p.first_costly.trick}-${p.seat}`));
    out.push(el("h3", {}, t(r.game === "400" ? "review.tricks_400" : "review.tricks_tarneeb")));
    const rows = [];
    const tricks = new Map();
    for (const c of r.cards) { if (!tricks.has(c.trick)) tricks.set(c.trick, []); tricks.get(c.trick).push(c); }
    for (const [trick, cards] of tricks) {
      const bySeat = {};
      for (const c of cards) bySeat[c.seat] = c;
      const costly = cards.filter((c) => c.cost > 0 || c.verdict === "mistake");
      const cells = [1, 2, 3, 4].map((s) => {
        const c = bySeat[s];
        // a card is a question too: what should its player have played, from their seat?
        return el("td", {dir: "ltr"}, c ? el("button", {type: "button", class: `trick-card${c.cost > 0 ? " costly" : ""}`,
          "data-at": String(r.cards.indexOf(c)), title: c.cost > 0 ? t("review.cost", {cost: c.cost, unit}) : t("review.keeps")},
          (c === cards[0] ? "*" : "") + cardText(c.card)) : "");
      });
      const first = costly.some((c) => firsts.has(`${trick}-${c.seat}`));
      const costs = costly.map((c) => t("review.costly_card", {seat: c.seat, card: cardText(c.card), cost: c.cost, unit}) +
        (c.better && c.better.length ? " " + t("review.kept_by", {cards: c.better.map(cardText).join(" ")}) : "") +
        (c.verdict ? " \u2014 " + t("review.decision", {verdict: t(`card_verdict.${c.verdict.replace(" ", "_")}`),
          cost: c.decision_cost.toFixed(2), se: c.decision_cost_se.toFixed(2), unit}) : ""));
      rows.push(el("tr", {class: first ? "first-costly" : (costly.length ? "costly" : "")}, el("th", {}, String(trick)), ...cells,
        el("td", {dir: "ltr"}, String(cards[cards.length - 1].value_after)), el("td", {}, costs.join(t("ui.list_sep")))));
    }
    out.push(el("table", {id: "review-tricks"}, el("thead", {}, headRow(["col.trick", ...[1, 2, 3, 4].map((n) => t("ui.seat_n", {n})), "col.value_after", "col.costly_cards"])),
      el("tbody", {}, ...rows)));
    out.push(el("p", {class: "note"}, saidText(r, "note", r.note)));
    if (r.decision_note) out.push(el("p", {class: "note"}, saidText(r, "decision_note", r.decision_note)));
    out.push(el("p", {class: "muted"}, t("card.ask")));
    out.push(el("div", {id: "review-card"}));
  }
  out.push(el("h3", {}, t("review.per_player")));
  out.push(el("table", {id: "review-players"}, el("thead", {}, headRow(["col.seat", r.game === "400" ? "col.bid" : "col.costly_calls", "col.costly_cards", "col.lost_in_play", "col.first_costly"])),
    el("tbody", {}, ...r.summary.players.map((p) => el("tr", {}, el("th", {}, String(p.seat)),
      el("td", {}, r.game === "400" ? (p.bid_verdict ? t(`verdict.${p.bid_verdict}`) : "-") : t("review.n_of", {a: p.costly_calls, b: p.calls})), el("td", {}, String(p.costly_cards)),
      el("td", {dir: "ltr"}, String(p.play_loss)),
      el("td", {}, p.first_costly ? t("review.first_costly", {trick: p.first_costly.trick, card: cardText(p.first_costly.card), cost: p.first_costly.cost}) : "-"))))));
  if (r.result) out.push(el("p", {}, t("review.result", {deltas: r.result.deltas.map((d) => signed(d, 0)).join(" "), scores: r.result.scores.join("/")})));
  return out;
}

function showReview(r) {
  redraw.review = () => showReview(r);
  $("review-result").replaceChildren(...reviewTables(r));
  for (const button of document.querySelectorAll("#review-tricks button.trick-card")) {
    button.addEventListener("click", () => askCard(r, Number(button.dataset.at)));
  }
}

// "What now?": t400 card for the player to move before a card of the reviewed hand.
function cardTables(a) {
  const game = a.game;
  const out = [el("h3", {}, t("card.title")),
    el("p", {}, t("card.header", {seat: a.seat, n: a.played.length, layouts: a.layouts, asked: a.layouts_asked, seed: a.seed,
      s: a.elapsed_s.toFixed(2)}))];
  const made = game === "tarneeb" ? "col.contract_made" : "col.bid_made";
  out.push(el("table", {id: "card-table"}, el("thead", {}, headRow(["col.card", "col.equal", "col.side_points", made, "col.p_best"])),
    el("tbody", {}, ...a.cards.map((c) => el("tr", {class: c.card === a.recommended ? "recommended" : ""},
      el("th", {dir: "ltr"}, (c.card === a.recommended ? "*" : "") + c.card), el("td", {dir: "ltr"}, c.equal.join(" ") || "-"),
      el("td", {dir: "ltr"}, `${signed(c.points, 2)} \u00b1 ${c.points_se.toFixed(2)}`),
      el("td", {}, `${Math.round(100 * (c.p_made ?? c.p_contract_made))}%`), el("td", {}, `${Math.round(100 * c.p_best)}%`))))));
  out.push(el("p", {}, t("card.recommended", {card: a.recommended})));
  out.push(el("ul", {}, ...a.reasons.map((w) => el("li", {}, has(w.key) ? t(w.key, w.params) : w.text))));
  return out;
}

async function askCard(r, at) {
  const box = $("review-card");
  box.replaceChildren(el("p", {class: "muted"}, t("card.busy")));
  try {
    const a = await api("/api/card", {record: $("review-record").value, at});
    redraw.review = () => { showReview(r); $("review-card").replaceChildren(...cardTables(a)); };
    box.replaceChildren(...cardTables(a));
  } catch (e) { box.replaceChildren(el("p", {class: "error", role: "alert"}, e.message || String(e))); }
}

$("review-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  showError("review-error", null);
  $("review-result").replaceChildren();
  delete redraw.review;
  const body = {record: $("review-record").value, seed: number("review-seed") ?? 0};
  const samples = number("review-samples");
  if (samples !== null) body.samples = samples;
  $("review-go").disabled = true;
  $("review-progress").hidden = false;
  try {
    showReview(await api("/api/review", body));
  } catch (e) { showError("review-error", e); }
  finally { $("review-go").disabled = false; $("review-progress").hidden = true; }
});

// ---- rules ------------------------------------------------------------------------------

// A rule's sentence: the API's English, or the same sentence from the catalogue by the key the
// API gives for it (its "said" object, by where the sentence stands).
const ruleKey = (k) => (has(`rules.key.${k}`) ? t(`rules.key.${k}`) : k.replace(/_/g, " "));
const ruleText = saidText;

function tarneebRules(r) {
  const out = [el("p", {}, t("rules.t_intro", {label: r.label === r.variant ? variantText(r.variant) : r.label}))];
  out.push(el("h3", {}, t("rules.auction")));
  out.push(el("ul", {}, ...Object.entries(r.auction).map(([k, v]) => el("li", {}, `${ruleKey(k)}: ${ruleText(r, `auction.${k}`, v)}`))));
  out.push(el("p", {}, t("rules.t_trump", {trump: ruleText(r, "trump", r.trump), strains: r.strains.map(strainText).join(", "),
    play: ruleText(r, "play", r.play)})));
  out.push(el("h3", {}, t("rules.scoring")));
  out.push(el("p", {}, t("rules.made_failed", {made: ruleText(r, "scoring.made", r.scoring.made), failed: ruleText(r, "scoring.failed", r.scoring.failed)})));
  out.push(el("table", {}, el("thead", {}, headRow(["col.bid", "col.declarers_tricks", "col.declarers", "col.defenders"])),
    el("tbody", {}, ...r.scoring.examples.map((x) => el("tr", {}, el("td", {}, String(x.bid)), el("td", {}, String(x.tricks)),
      el("td", {dir: "ltr"}, signed(x.declarers, 0)), el("td", {dir: "ltr"}, signed(x.defenders, 0)))))));
  out.push(el("h3", {}, t("rules.match")));
  out.push(el("p", {}, ruleText(r, "match.end", r.match.end)));
  return out;
}

async function loadRules() {
  showError("rules-error", null);
  try {
    const r = await api("/api/rules", {variant: $("rules-variant").value});
    if (r.game === "tarneeb") { $("rules-result").replaceChildren(...tarneebRules(r)); return; }
    const out = [el("p", {}, t("rules.400_intro", {label: r.label === r.variant ? variantText(r.variant) : r.label}))];
    const bids = Object.keys(Object.values(r.value_table)[0]);
    out.push(el("h3", {}, t("rules.value_title")));
    out.push(el("table", {}, el("thead", {}, headRow(["col.bid", ...bids])),
      el("tbody", {}, ...Object.entries(r.value_table).map(([label, values]) =>
        el("tr", {}, el("th", {}, t("rules.own_score", {range: label.replace(/^own score /, "")})),
          ...bids.map((b) => el("td", {}, String(values[b]))))))));
    out.push(el("h3", {}, t("rules.minimums")));
    const brackets = Object.keys(r.min_bid);
    out.push(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, ""), ...brackets.map((b) => el("th", {dir: "ltr"}, b)))),
      el("tbody", {},
        el("tr", {}, el("th", {}, t("rules.own_min")), ...brackets.map((b) => el("td", {}, String(r.min_bid[b])))),
        el("tr", {}, el("th", {}, t("rules.table_min")), ...brackets.map((b) => el("td", {}, String(r.table_min[b])))))));
    out.push(el("h3", {}, t("rules.match")));
    out.push(el("ul", {}, ...Object.entries(r.match).map(([k, v]) => el("li", {}, `${ruleKey(k)}: ${ruleText(r, `match.${k}`, v)}`))));
    $("rules-result").replaceChildren(...out);
  } catch (e) { showError("rules-error", e); }
}
$("rules-variant").addEventListener("change", loadRules);

// ---- a link that carries the question ----------------------------------------------------

// The link holds the API body of the question (hand, seat, scores, bids, variant, options and
// the seed), so opening it asks the same question and gets the same answer.
// The Tarneeb page's elements carry the prefix "call-".
function shareLink(body, prefix = "") {
  const url = new URL(window.location.href);
  url.search = "";
  url.hash = "";
  url.searchParams.set("q", JSON.stringify(body));
  history.replaceState(null, "", url);
  $(`${prefix}share`).hidden = false;
  $(`${prefix}share-link`).value = url.toString();
}

for (const prefix of ["", "call-"]) {
  $(`${prefix}copy-link`).addEventListener("click", async () => {
    const box = $(`${prefix}share-link`);
    const button = $(`${prefix}copy-link`);
    try { await navigator.clipboard.writeText(box.value); } catch (e) { box.select(); document.execCommand("copy"); }
    button.textContent = t("ui.copied");
    setTimeout(() => { button.textContent = t("ui.copy_link"); }, 2000);
  });
}

async function askCallFromLink(body) {
  showPage("call");
  setField("call-hand", body.hand);
  for (const [key, id] of [["seat", "call-seat"], ["variant", "call-variant"], ["objective", "call-objective"],
    ["model", "call-model"], ["samples", "call-samples"], ["seed", "call-seed"]]) setField(id, body[key]);
  setField("call-auction", (body.auction || []).join(","));
  (body.scores || []).forEach((s, i) => setField(`call-score-${i + 1}`, s));
  if (body.infer === false) $("call-infer").checked = false;
  $("call-ask").disabled = true;
  startProgress("call-");
  try {
    showCall(await api("/api/bid", body), body);  // the link's own question, exactly
    shareLink(body, "call-");
  } catch (e) { showError("call-error", e); }
  finally { stopProgress("call-"); $("call-ask").disabled = false; }
}

function setField(id, value) {
  if (value !== undefined && value !== null && $(id)) $(id).value = String(value);
}

async function askFromLink() {
  const q = new URLSearchParams(window.location.search).get("q");
  if (!q) return;
  let body;
  try { body = JSON.parse(q); } catch (e) { showError("bid-error", new PageError("err.link_unreadable")); return; }
  if (!body || typeof body !== "object" || typeof body.hand !== "string") { showError("bid-error", new PageError("err.link_no_hand")); return; }
  if (body.game === "tarneeb") { await askCallFromLink(body); return; }
  try {
    const data = await api("/api/hand", {hand: body.hand});
    selected.clear();
    data.cards.forEach((c) => selected.add(c));
    syncPicker();
    $("hand-text").value = handDot();
  } catch (e) { showError("bid-error", e); return; }
  setField("seat", body.seat ?? 1);
  renderEarlier();
  (body.bids || []).forEach((b, i) => setField(`earlier-${i + 1}`, b));
  (body.scores || []).forEach((s, i) => setField(`score-${i + 1}`, s));
  for (const [key, id] of [["variant", "variant"], ["objective", "objective"], ["model", "model"], ["policy", "policy"],
    ["samples", "samples"], ["seed", "seed"], ["target", "target"], ["table_min", "table-min"], ["score_table", "score-table"],
    ["tie_break", "tie-break"], ["redeal", "redeal"]]) setField(id, body[key]);
  for (const [key, id] of [["fixed_table_min", "fixed-table-min"], ["fixed_min_bid", "fixed-min-bid"]]) {
    if (body[key] !== undefined) setField(id, body[key] ? "true" : "false");
  }
  if (body.infer === false) $("infer").checked = false;
  $("ask").disabled = true;
  startProgress();
  try {
    const result = await api("/api/bid", body);  // the link's own question, exactly
    showBid(result, body);
    shareLink(body);
  } catch (e) { showError("bid-error", e); }
  finally { stopProgress(); $("ask").disabled = false; }
}

// ---- start ------------------------------------------------------------------------------

// The menus made from /api/meta, in the reader's language (their values are the API's names).
function fillMenus() {
  if (!META) return;
  for (const id of ["variant", "score-variant"]) fillVariants($(id), id === "score-variant" ? $("score-game").value : "400");
  fillVariants($("call-variant"), "tarneeb");
  const rules = $("rules-variant").value;
  const group = (game, presets) => el("optgroup", {label: t(`game.${game}`)},
    ...Object.entries(presets).map(([name, text]) => el("option", {value: name, title: text}, variantText(name))));
  $("rules-variant").replaceChildren(...Object.entries(META.games).map(([game, info]) => group(game, info.presets)));
  if (rules) $("rules-variant").value = rules;
  document.querySelectorAll("select[data-meta]").forEach((select) => {
    const chosen = select.value;
    select.replaceChildren(el("option", {value: ""}, t("ui.variants_own")),
      ...META.games["400"].choices[select.dataset.switch].map((v) => el("option", {value: v}, t(`meta.${select.dataset.meta}.${v}`))));
    select.value = chosen;
  });
}

async function start() {
  try {
    CATALOGUE = await api("/api/messages");
  } catch (e) { /* the page still works, its labels empty; the error says why */ }
  setLanguage(firstLanguage());
  try {
    const meta = await api("/api/meta");
    META = meta;
    $("version").textContent = `v${meta.version}`;
    fillMenus();
  } catch (e) { showError("bid-error", e); }
  await askFromLink();
}
start();
