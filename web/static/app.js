"use strict";
// The page of `t400 serve`: every answer comes from the JSON API (/api/...), which answers
// exactly what `t400 COMMAND --json` prints for the same options.

const SUITS = [["S", "\u2660", "spades"], ["H", "\u2665", "hearts"], ["D", "\u2666", "diamonds"], ["C", "\u2663", "clubs"]];
const RANKS = "AKQJT98765432";
const selected = new Set();
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body),
  };
  const response = await fetch(path, init);
  let data;
  try { data = await response.json(); } catch (e) { data = {error: `Error: the server answered ${response.status}`}; }
  if (!response.ok) throw new Error(data.error || `Error: the server answered ${response.status}`);
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
  for (const [s, symbol, name] of SUITS) {
    const row = el("div", {class: `suit-row suit-${s}`}, el("span", {class: "suit-label", title: name}, symbol));
    for (const r of RANKS) {
      const card = s + r;
      const button = el("button", {type: "button", class: "card", "data-card": card, title: `${r === "T" ? "10" : r} of ${name}`},
        r === "T" ? "10" : r);
      button.addEventListener("click", () => toggleCard(card));
      row.append(button);
    }
    picker.append(row);
  }
  syncPicker();
}

function toggleCard(card) {
  $("hand-error").textContent = "";
  if (selected.has(card)) selected.delete(card);
  else if (selected.size >= 13) { $("hand-error").textContent = "A hand has 13 cards: click a picked card to drop it first."; return; }
  else selected.add(card);
  syncPicker();
  $("hand-text").value = selected.size ? handDot() : "";
}

function syncPicker() {
  document.querySelectorAll(".card").forEach((b) => b.classList.toggle("picked", selected.has(b.dataset.card)));
  $("card-count").textContent = `${selected.size} / 13 cards`;
}

function handDot() {
  return SUITS.map(([s]) => [...RANKS].filter((r) => selected.has(s + r)).join("") || "-").join(".");
}

async function readHand() {
  $("hand-error").textContent = "";
  const text = $("hand-text").value.trim();
  if (!text) return;
  try {
    const data = await api("/api/hand", {hand: text});
    selected.clear();
    data.cards.forEach((c) => selected.add(c));
    syncPicker();
  } catch (e) { $("hand-error").textContent = e.message; }
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
    box.append(el("label", {}, `Seat ${s} `, el("input", {type: "number", id: `earlier-${s}`, min: "2", max: "13", value: before[s - 1] || ""})));
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
      if (b === null) throw new Error(`Error: enter the bid of seat ${s} (the seats before you have bid)`);
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
  text.textContent = "starting...";
  polling = setInterval(async () => {
    try {
      const s = await api("/api/status");
      if (!s.busy) return;
      if (s.compiling) {
        bar.removeAttribute("value");
        text.textContent = `preparing (the first question compiles the kernels, a minute or two): ${s.elapsed_s.toFixed(0)} s`;
      } else {
        bar.max = Math.max(s.total, 1);
        bar.value = s.done;
        text.textContent = `sampling: ${Math.round(100 * s.done / Math.max(s.total, 1))}% (${s.elapsed_s.toFixed(1)} s)`;
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
  $("bid-error").textContent = "";
  if (selected.size !== 13) { $("bid-error").textContent = `Error: pick 13 cards (${selected.size} picked)`; return; }
  let body;
  try { body = bidBody(); } catch (e) { $("bid-error").textContent = e.message; return; }
  $("ask").disabled = true;
  startProgress();
  try {
    const result = await api("/api/bid", body);
    showBid(result, body);
    shareLink(body);
  } catch (e) {
    $("bid-error").textContent = e.message;
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
  const win = r.objective === "win";
  const best = r.bids.find((row) => row.bid === r.recommended);
  $("recommended-bid").textContent = r.recommended;
  let line = win ? `P(win the match) ${pct(best.p_win, best.p_win_se, 2)}` : `EV ${signed(best.ev)} points`;
  if (r.tied_bids.length > 1) line += `; bids ${r.tied_bids.join(", ")} tie, the lowest is shown`;
  else if (r.warning) line += "; too uncertain to say how likely it is the best";
  else {
    line += `; best with probability ${(100 * r.p_best).toFixed(0)}%`;
    if (r.runner_up !== null) {
      line += win
        ? `; ${signed(100 * r.p_win_margin)} \u00b1 ${(100 * r.p_win_margin_se).toFixed(2)} percentage points of P(win) over bidding ${r.runner_up}`
        : `; ${signed(r.ev_margin)} \u00b1 ${r.ev_margin_se.toFixed(2)} points over bidding ${r.runner_up}`;
    }
  }
  $("confidence").textContent = line;
  $("reasons").replaceChildren(...r.reasons.map((x) => el("li", {"data-key": x.key}, x.text)));
  $("objective-note").textContent = `Objective: ${r.objective_note}`;
  $("notes").textContent = [r.note && `Note: ${r.note}`, r.warning && `Warning: ${r.warning}`].filter(Boolean).join(" ");
  const spread = r.tricks_mean_se === null ? "" : ` \u00b1 ${r.tricks_mean_se.toFixed(2)}`;
  $("chart-title").textContent = `Your tricks if you bid ${r.tricks_for_bid} (hands played): mean ${r.tricks_mean.toFixed(2)}${spread}`;
  drawChart(r);
  drawTable(r, win);
  const killers = r.killing_bids;
  $("killing").textContent = killers.length
    ? `Bid${killers.length > 1 ? "s" : ""} ${killers.join(", ")} kill${killers.length > 1 ? "" : "s"} the hand (the total stays short of the table minimum).`
    : "";
  $("sample-line").textContent = `${r.model === "rollout" ? `Rollout (bots bid, all play ${r.policy})` : r.model === "dd" ? "400 double dummy with the bids" : "Solo double dummy"}: ` +
    `${r.samples.toLocaleString("en")} deals, seed ${r.seed}, ${r.elapsed_s.toFixed(2)} s` +
    (r.precision_target_met ? "" : "; precision target not reached");
  $("command").textContent = commandLine("bid", body, "hand");
  $("bid-result").hidden = false;
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
  svg.setAttribute("aria-label", "trick distribution");
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
                 "data-tricks": k, "data-p": p}).append(Object.assign(document.createElementNS(svgNS, "title"), {textContent: `${k} tricks: ${pct(p, r.tricks_se[k])}`}));
    add("text", {x: x + (slot - 4) / 2, y: H - bottom + 16, class: "tick", "text-anchor": "middle"}, String(k));
    if (p >= 0.005) add("text", {x: x + (slot - 4) / 2, y: y(p) - 3, class: "value", "text-anchor": "middle"}, `${(100 * p).toFixed(0)}`);
  });
  add("text", {x: W - 4, y: top, class: "legend", "text-anchor": "end"}, `dark: enough for bid ${r.recommended}`);
  $("chart").replaceChildren(svg);
}

function drawTable(r, win) {
  const heads = ["bid", "value", "P(make)", "P(dead)", "EV (points)", ...(win ? ["P(win match)"] : []), "P(best)"];
  $("bid-table").querySelector("thead").replaceChildren(el("tr", {}, ...heads.map((h) => el("th", {}, h))));
  const rows = r.bids.map((row) => {
    const cells = [String(row.bid), String(row.value), pct(row.p_make, row.p_make_se), pct(row.p_dead, null),
      `${signed(row.ev)} \u00b1 ${row.ev_se.toFixed(2)}`, ...(win ? [pct(row.p_win, row.p_win_se, 2)] : []), pct(row.p_best, null, 0)];
    const tr = el("tr", {"data-bid": row.bid}, ...cells.map((c) => el("td", {}, c)));
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
    $("call-hand-shown").textContent = `${data.symbols} (${data.count} cards)`;
  } catch (e) { $("call-hand-shown").textContent = e.message; }
}
$("call-hand").addEventListener("change", showCallHand);

function callBody() {
  const hand = $("call-hand").value.trim();
  if (!hand) throw new Error("Error: type your 13 cards");
  const body = {game: "tarneeb", hand, seat: Number($("call-seat").value), variant: $("call-variant").value};
  const auction = $("call-auction").value.split(",").map((c) => c.trim()).filter(Boolean);
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
  $("call-error").textContent = "";
  let body;
  try { body = callBody(); } catch (e) { $("call-error").textContent = e.message; return; }
  $("call-ask").disabled = true;
  startProgress("call-");
  try {
    showCall(await api("/api/bid", body), body);
    shareLink(body, "call-");
  } catch (e) {
    $("call-error").textContent = e.message;
  } finally {
    stopProgress("call-");
    $("call-ask").disabled = false;
  }
});

function showCall(r, body) {
  const win = r.objective === "win";
  const best = r.calls.find((c) => c.call === r.recommended);
  $("recommended-call").textContent = r.recommended + (r.trump ? `, naming ${r.trump}` : "");
  const value = win ? `P(win the match) ${pct(best.p_win, best.p_win_se, 2)}` : `EV ${signed(best.ev)} \u00b1 ${best.ev_se.toFixed(2)} points`;
  $("call-confidence").textContent = `${value}; best with probability ${(100 * r.p_best).toFixed(0)}%` +
    (r.p_win_now === null ? "" : `; your team's P(win) before the hand ${pct(r.p_win_now, null, 1)}`);
  $("call-objective-note").textContent = `Objective: ${r.objective_note}`;
  $("call-reasons").replaceChildren(...r.reasons.map((x) => el("li", {"data-key": x.key}, x.text)));
  const ks = [7, 8, 9, 10, 11, 12, 13];
  $("strain-table").querySelector("thead").replaceChildren(el("tr", {}, ...["strain", "mean", ...ks.map((k) => `\u2265${k}`)].map((h) => el("th", {}, h))));
  $("strain-table").querySelector("tbody").replaceChildren(...Object.entries(r.strains).map(([letter, s]) => {
    const atLeast = (k) => s.tricks.slice(k).reduce((a, b) => a + b, 0);
    return el("tr", {"data-strain": letter}, el("td", {}, letter), el("td", {}, `${s.mean.toFixed(2)} \u00b1 ${s.mean_se.toFixed(2)}`),
      ...ks.map((k) => el("td", {}, pct(atLeast(k), null, 1))));
  }));
  const heads = ["call", "trump", "ends as contract", "made", "team declares", "EV (points)", ...(win ? ["P(win match)"] : [])];
  $("call-table").querySelector("thead").replaceChildren(el("tr", {}, ...heads.map((h) => el("th", {}, h))));
  $("call-table").querySelector("tbody").replaceChildren(...r.calls.map((c) => {
    const ends = c.p_ends > 0;
    const cells = [c.call, c.trump || "-", ends ? pct(c.p_ends, c.p_ends_se) : "-", ends ? pct(c.p_make, c.p_make_se) : "-",
      pct(c.p_declare, null), `${signed(c.ev)} \u00b1 ${c.ev_se.toFixed(2)}`, ...(win ? [pct(c.p_win, c.p_win_se, 2)] : [])];
    const tr = el("tr", {"data-call": c.call}, ...cells.map((x) => el("td", {}, x)));
    if (c.call === r.recommended) tr.classList.add("recommended");
    return tr;
  }));
  $("call-notes").textContent = `${r.samples.toLocaleString("en")} deals (effective ${Math.round(r.effective_samples).toLocaleString("en")}), ` +
    `seed ${r.seed}, ${r.elapsed_s.toFixed(2)} s. ` + r.notes.join(" ");
  $("call-command").textContent = commandLine("bid", body, "hand");
  $("call-result").hidden = false;
}

// ---- score a round ----------------------------------------------------------------------

let META = null;

function fillVariants(select, game) {
  const presets = game === "tarneeb" ? META.tarneeb_presets : META.presets;
  select.replaceChildren(...Object.entries(presets).map(([name, text]) => el("option", {value: name, title: text}, name)));
  if (game === "tarneeb") select.value = "tarneeb";
}

$("score-game").addEventListener("change", () => {
  const tarneeb = $("score-game").value === "tarneeb";
  $("score-tarneeb").hidden = !tarneeb;
  $("score-400").hidden = tarneeb;
  fillVariants($("score-variant"), $("score-game").value);
  $("score-result").replaceChildren();
});

async function scoreTarneeb() {
  const body = {game: "tarneeb", variant: $("score-variant").value, scores: [number("t-score-1") ?? 0, number("t-score-2") ?? 0],
                declarer: Number($("t-declarer").value), bid: number("t-bid"), tricks: number("t-tricks")};
  if ($("t-trump").value) body.trump = $("t-trump").value;
  if ($("t-doubled").checked) body.doubled = true;
  const r = await api("/api/score", body);
  const head = el("tr", {}, ...["", "before", "change", "after"].map((h) => el("th", {}, h)));
  const rows = ["1+3", "2+4"].map((team, i) => el("tr", {}, el("th", {}, `Seats ${team}`), el("td", {}, String(r.scores_before[i])),
    el("td", {}, `${r.deltas[i] >= 0 ? "+" : ""}${r.deltas[i]}`), el("td", {}, String(r.scores[i]))));
  const lines = [`Contract ${r.bid}${r.trump ? " " + r.trump : ""}${r.doubled ? " doubled" : ""} by seat ${r.declarer}: ` +
    `${r.made ? "made" : "failed"} with ${r.tricks} tricks${r.kaboot ? " (Kaboot)" : ""}.`];
  if (r.winner) lines.push(`Winner: seats ${r.winner[0]} and ${r.winner[1]} (${r.reason}).`);
  else if (r.draw) lines.push(`Draw: ${r.reason}.`);
  else lines.push(r.reason ? `No winner yet: ${r.reason}.` : "No winner yet.");
  $("score-result").replaceChildren(el("table", {id: "score-table-result"}, el("thead", {}, head), el("tbody", {}, ...rows)),
    ...lines.map((l) => el("p", {}, l)));
}

$("score-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("score-error").textContent = "";
  if ($("score-game").value === "tarneeb") {
    try { await scoreTarneeb(); } catch (e) { $("score-error").textContent = e.message; }
    return;
  }
  const four = (name) => [1, 2, 3, 4].map((s) => number(`s-${name}-${s}`));
  const body = {scores: four("score").map((v) => v ?? 0), bids: four("bid"), variant: $("score-variant").value};
  const tricks = four("tricks");
  if (tricks.some((t) => t !== null)) body.tricks = tricks;
  try {
    const r = await api("/api/score", body);
    const head = el("tr", {}, ...["", "before", "bid", "value", "tricks", "result", "change", "after"].map((h) => el("th", {}, h)));
    const rows = [0, 1, 2, 3].map((i) => el("tr", {},
      el("th", {}, `Seat ${i + 1}`), el("td", {}, String(r.scores_before[i])), el("td", {}, String(r.bids[i])),
      el("td", {}, String(r.values[i])), el("td", {}, r.tricks ? String(r.tricks[i]) : "-"),
      el("td", {}, r.made === null ? "-" : (r.made[i] ? "made" : "set")),
      el("td", {}, `${r.deltas[i] >= 0 ? "+" : ""}${r.deltas[i]}`), el("td", {}, String(r.scores[i]))));
    const total = r.bids.reduce((a, b) => a + b, 0);
    const lines = [r.dead
      ? `Dead hand: bids total ${total}, under the table minimum of ${r.table_minimum}; ${r.dealer_advances ? "the next dealer" : "the same dealer"} re-deals.`
      : `Bids total ${total} (table minimum ${r.table_minimum}).`];
    if (r.winner) lines.push(`Winner: seats ${r.winner[0]} and ${r.winner[1]} (${r.reason}).`);
    else lines.push(r.reason ? `No winner yet: ${r.reason}.` : "No winner yet.");
    $("score-result").replaceChildren(el("table", {id: "score-table-result"}, el("thead", {}, head), el("tbody", {}, ...rows)),
      ...lines.map((l) => el("p", {}, l)));
  } catch (e) { $("score-error").textContent = e.message; }
});

// ---- review a hand -------------------------------------------------------------------------

const SUIT_OF = Object.fromEntries(SUITS.map(([s, symbol]) => [s, symbol]));
const cardText = (c) => SUIT_OF[c[0]] + (c[1] === "T" ? "10" : c[1]);

function lossText(loss, se, objective) {
  return objective === "win" ? `${(100 * loss).toFixed(2)} ± ${(100 * se).toFixed(2)} pp of P(win)`
    : `${loss.toFixed(2)} ± ${se.toFixed(2)} points`;
}

function reviewTables(r) {
  const out = [el("p", {}, `${r.game === "400" ? "400" : "Tarneeb"} (${r.variant}), seed ${r.seed}; reviewed in ${r.elapsed_s.toFixed(1)} s.`)];
  const verdictCell = (v) => el("td", {class: `verdict-${v.replace(" ", "-")}`}, v);
  if (r.game === "400") {
    out.push(el("h3", {}, "Bidding"));
    out.push(el("table", {id: "review-bids"}, el("thead", {}, el("tr", {}, ...["seat", "hand", "bids before", "bid", "best", "loss", "verdict"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...r.bidding.map((b) => el("tr", {class: b.verdict === "costly" ? "costly" : ""},
        el("th", {}, String(b.seat)), el("td", {}, b.hand), el("td", {}, b.bids_before.join(",") || "-"),
        el("td", {}, String(b.bid)), el("td", {}, String(b.recommended)),
        el("td", {}, b.verdict === "best" ? "" : lossText(b.loss, b.loss_se, b.objective)), verdictCell(b.verdict))))));
  } else {
    out.push(el("h3", {}, "Calls"));
    out.push(el("table", {id: "review-bids"}, el("thead", {}, el("tr", {}, ...["call", "seat", "calls before", "called", "best", "loss", "verdict"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...r.calling.map((c) => el("tr", {class: c.verdict === "costly" ? "costly" : ""},
        el("th", {}, String(c.call_number)), el("td", {}, String(c.seat)), el("td", {}, c.calls_before.join(",") || "-"),
        el("td", {}, c.call), el("td", {}, c.recommended),
        el("td", {}, c.verdict === "best" ? "" : lossText(c.loss, c.loss_se, c.objective)), verdictCell(c.verdict))))));
    if (r.contract) out.push(el("p", {}, `Contract: seat ${r.contract.declarer} ${r.contract.bid} in ${r.contract.trump || "?"}${r.contract.doubled ? ", doubled" : ""}.`));
  }
  if (r.cards.length) {
    const unit = r.game === "400" ? "points" : "tricks";
    const firsts = new Set(r.summary.players.filter((p) => p.first_costly).map((p) => `${p.first_costly.trick}-${p.seat}`));
    out.push(el("h3", {}, `Trick by trick (double dummy: ${r.game === "400" ? "seats 1+3's points minus seats 2+4's" : "the declaring team's tricks"} under best play)`));
    const rows = [];
    const tricks = new Map();
    for (const c of r.cards) { if (!tricks.has(c.trick)) tricks.set(c.trick, []); tricks.get(c.trick).push(c); }
    for (const [t, cards] of tricks) {
      const bySeat = {};
      for (const c of cards) bySeat[c.seat] = c;
      const costly = cards.filter((c) => c.cost > 0);
      const cells = [1, 2, 3, 4].map((s) => {
        const c = bySeat[s];
        return el("td", {}, c ? el("span", {class: `trick-card${c.cost > 0 ? " costly" : ""}`, title: c.cost > 0 ? `cost ${c.cost} ${unit}` : "keeps the value"},
          (c === cards[0] ? "*" : "") + cardText(c.card)) : "");
      });
      const first = costly.some((c) => firsts.has(`${t}-${c.seat}`));
      rows.push(el("tr", {class: first ? "first-costly" : (costly.length ? "costly" : "")}, el("th", {}, String(t)), ...cells,
        el("td", {}, String(cards[cards.length - 1].value_after)),
        el("td", {}, costly.map((c) => `seat ${c.seat} ${cardText(c.card)}: ${c.cost} ${unit}${c.better && c.better.length ? ` (${c.better.map(cardText).join(" ")} kept it)` : ""}`).join("; "))));
    }
    out.push(el("table", {id: "review-tricks"}, el("thead", {}, el("tr", {}, ...["trick", "seat 1", "seat 2", "seat 3", "seat 4", "value after", "costly cards"].map((h) => el("th", {}, h)))),
      el("tbody", {}, ...rows)));
    out.push(el("p", {class: "note"}, r.note));
  }
  out.push(el("h3", {}, "Per player"));
  out.push(el("table", {id: "review-players"}, el("thead", {}, el("tr", {}, ...["seat", r.game === "400" ? "bid" : "costly calls", "costly cards", "lost in play", "first costly card"].map((h) => el("th", {}, h)))),
    el("tbody", {}, ...r.summary.players.map((p) => el("tr", {}, el("th", {}, String(p.seat)),
      el("td", {}, r.game === "400" ? p.bid_verdict : `${p.costly_calls} of ${p.calls}`), el("td", {}, String(p.costly_cards)),
      el("td", {}, String(p.play_loss)), el("td", {}, p.first_costly ? `trick ${p.first_costly.trick}: ${cardText(p.first_costly.card)} (${p.first_costly.cost})` : "-"))))));
  if (r.result) out.push(el("p", {}, `Result by the rules: ${r.result.deltas.map((d) => signed(d, 0)).join(" ")}; scores after: ${r.result.scores.join("/")}.`));
  return out;
}

$("review-form").addEventListener("submit", async (event) => {
  event.preventDefault();
  $("review-error").textContent = "";
  $("review-result").replaceChildren();
  const body = {record: $("review-record").value, seed: number("review-seed") ?? 0};
  const samples = number("review-samples");
  if (samples !== null) body.samples = samples;
  $("review-go").disabled = true;
  $("review-progress").hidden = false;
  try {
    const r = await api("/api/review", body);
    $("review-result").replaceChildren(...reviewTables(r));
  } catch (e) { $("review-error").textContent = e.message; }
  finally { $("review-go").disabled = false; $("review-progress").hidden = true; }
});

// ---- rules ------------------------------------------------------------------------------

function tarneebRules(r) {
  const out = [el("p", {}, `Variant ${r.label}. Partners (seats 1+3 against 2+4) bid together for their team's tricks, 7..13.`)];
  out.push(el("h3", {}, "Auction"));
  out.push(el("ul", {}, ...Object.entries(r.auction).map(([k, v]) => el("li", {}, `${k.replace(/_/g, " ")}: ${v}`))));
  out.push(el("p", {}, `Trump: ${r.trump} (${r.strains.join(", ")}). Play: ${r.play}.`));
  out.push(el("h3", {}, "Scoring"));
  out.push(el("p", {}, `Made: ${r.scoring.made}. Failed: ${r.scoring.failed}.`));
  out.push(el("table", {}, el("thead", {}, el("tr", {}, ...["bid", "declarers' tricks", "declarers", "defenders"].map((h) => el("th", {}, h)))),
    el("tbody", {}, ...r.scoring.examples.map((x) => el("tr", {}, el("td", {}, String(x.bid)), el("td", {}, String(x.tricks)),
      el("td", {}, signed(x.declarers, 0)), el("td", {}, signed(x.defenders, 0)))))));
  out.push(el("h3", {}, "Match"));
  out.push(el("p", {}, r.match.end));
  return out;
}

async function loadRules() {
  $("rules-error").textContent = "";
  try {
    const r = await api("/api/rules", {variant: $("rules-variant").value});
    if (r.game === "tarneeb") { $("rules-result").replaceChildren(...tarneebRules(r)); return; }
    const out = [el("p", {}, `Variant ${r.label}. Trump: hearts, every hand. Each player bids 2..13 tricks for themselves, once.`)];
    const bids = Object.keys(Object.values(r.value_table)[0]);
    out.push(el("h3", {}, "Value of a bid (won if made, lost if failed)"));
    out.push(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, "bid"), ...bids.map((b) => el("th", {}, b)))),
      el("tbody", {}, ...Object.entries(r.value_table).map(([label, values]) =>
        el("tr", {}, el("th", {}, label), ...bids.map((b) => el("td", {}, String(values[b]))))))));
    out.push(el("h3", {}, "Minimums by score"));
    const brackets = Object.keys(r.min_bid);
    out.push(el("table", {}, el("thead", {}, el("tr", {}, el("th", {}, ""), ...brackets.map((b) => el("th", {}, b)))),
      el("tbody", {},
        el("tr", {}, el("th", {}, "own minimum bid (own score)"), ...brackets.map((b) => el("td", {}, String(r.min_bid[b])))),
        el("tr", {}, el("th", {}, "table minimum (highest score)"), ...brackets.map((b) => el("td", {}, String(r.table_min[b])))))));
    out.push(el("h3", {}, "Match"));
    out.push(el("ul", {}, ...Object.entries(r.match).map(([k, v]) => el("li", {}, `${k.replace(/_/g, " ")}: ${v}`))));
    $("rules-result").replaceChildren(...out);
  } catch (e) { $("rules-error").textContent = e.message; }
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
    button.textContent = "Copied";
    setTimeout(() => { button.textContent = "Copy link"; }, 2000);
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
  } catch (e) { $("call-error").textContent = e.message; }
  finally { stopProgress("call-"); $("call-ask").disabled = false; }
}

function setField(id, value) {
  if (value !== undefined && value !== null && $(id)) $(id).value = String(value);
}

async function askFromLink() {
  const q = new URLSearchParams(window.location.search).get("q");
  if (!q) return;
  let body;
  try { body = JSON.parse(q); } catch (e) { $("bid-error").textContent = "Error: the link's question is not readable"; return; }
  if (!body || typeof body !== "object" || typeof body.hand !== "string") { $("bid-error").textContent = "Error: the link holds no hand"; return; }
  if (body.game === "tarneeb") { await askCallFromLink(body); return; }
  try {
    const data = await api("/api/hand", {hand: body.hand});
    selected.clear();
    data.cards.forEach((c) => selected.add(c));
    syncPicker();
    $("hand-text").value = handDot();
  } catch (e) { $("bid-error").textContent = e.message; return; }
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
  } catch (e) { $("bid-error").textContent = e.message; }
  finally { stopProgress(); $("ask").disabled = false; }
}

// ---- start ------------------------------------------------------------------------------

async function start() {
  renderPicker();
  renderEarlier();
  try {
    const meta = await api("/api/meta");
    META = meta;
    $("version").textContent = `v${meta.version}`;
    for (const id of ["variant", "score-variant"]) fillVariants($(id), "400");
    fillVariants($("call-variant"), "tarneeb");
    $("rules-variant").replaceChildren(
      el("optgroup", {label: "400"}, ...Object.entries(meta.presets).map(([n, t]) => el("option", {value: n, title: t}, n))),
      el("optgroup", {label: "Tarneeb"}, ...Object.entries(meta.tarneeb_presets).map(([n, t]) => el("option", {value: n, title: t}, n))));
    document.querySelectorAll("select[data-meta]").forEach((select) => {
      select.replaceChildren(el("option", {value: ""}, "variant's"), ...meta[select.dataset.meta].map((v) => el("option", {value: v}, v)));
    });
  } catch (e) { $("bid-error").textContent = e.message; }
  await askFromLink();
}
start();
