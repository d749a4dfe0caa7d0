// acpcbot web: the Live, Replay and Play views; with acpcbot serve, the Leaderboard, My matches
// and Admin views too (and its logon form). Plain JavaScript, no build step; every text that
// comes from a file or a peer is set as text (never as HTML).
"use strict";

const $ = (selector, root = document) => root.querySelector(selector);
const $$ = (selector, root = document) => Array.from(root.querySelectorAll(selector));

function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name === "text") node.textContent = value;
    else if (name.startsWith("data-")) node.setAttribute(name, String(value));
    else node[name] = value;
  }
  for (const child of children) {
    if (child !== null && child !== undefined) node.append(child);
  }
  return node;
}

async function getJson(url) {
  const response = await fetch(url, { credentials: "same-origin" });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

// A POST of a JSON body: the answer's data, or an Error saying the server's reason.
async function postJson(url, body = {}) {
  const response = await fetch(url, {
    method: "POST", credentials: "same-origin",
    headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ error: response.statusText }));
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

const ROUNDS = ["preflop", "flop", "turn", "river"];
const roundName = (round) => ROUNDS[round] || `round ${round + 1}`;

const SUITS = { s: "\u2660", h: "\u2665", d: "\u2666", c: "\u2663" };

function card(text, extra = "") {
  if (!text) return el("span", { class: `card back ${extra}`, text: "??", title: "hidden" });
  const suit = text[1];
  const red = suit === "h" || suit === "d" ? "red" : "";
  return el("span", { class: `card ${red} ${extra}`, "data-card": text, text: text[0] + SUITS[suit] });
}

const cardText = (text) => text[0] + SUITS[text[1]];

function number(value, digits = 1) {
  if (value === null || value === undefined) return "-";
  return Number(value).toLocaleString("en", { maximumFractionDigits: digits, minimumFractionDigits: digits });
}

function signed(value, digits = 1) {
  if (value === null || value === undefined) return "-";
  return (value > 0 ? "+" : "") + number(value, digits);
}

function estimateText(mbb, ci) {
  if (mbb === null || mbb === undefined) return "-";
  return signed(mbb) + (ci === null || ci === undefined ? "" : ` \u00b1 ${number(ci)}`);
}

// A path inside a served folder ("" is the folder itself), joined without empty parts.
const joined = (...parts) => parts.filter((part) => part).join("/");

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "-";
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(r).padStart(2, "0")}`;
}

// ---- views -------------------------------------------------------------------------------

const views = { board: null, mine: null, admin: null, logon: null, live: null, replay: null, play: null };
let info = { views: ["live", "replay", "play"], folders: [], agents: [], mqtt: null, server: null };

// The views this server offers (the first is the default); the logon form with acpcbot serve.
function offered() {
  const user = info.server ? info.server.user : null;
  const names = (info.views || ["live", "replay", "play"]).filter((name) => name !== "admin" || (user && user.admin));
  return info.server ? [...names, "logon"] : names;
}

function route() {
  const names = offered();
  const name = location.hash.replace("#", "").split("/")[0];
  const view = names.includes(name) ? name : names[0];
  for (const key of Object.keys(views)) {
    $(`#view-${key}`).hidden = key !== view;
    const link = $(`#nav-${key}`);
    if (link) link.classList.toggle("current", key === view);
    if (key !== view && views[key].hide) views[key].hide();
  }
  views[view].show();
}

// Who is logged on (acpcbot serve): the header says so, and which views the nav offers.
function showWho() {
  const user = info.server ? info.server.user : null;
  for (const name of ["board", "mine", "admin", "live", "replay", "play"]) {
    $(`#nav-${name}`).hidden = !(info.views || []).includes(name) || (name === "admin" && !(user && user.admin));
  }
  $("#who").hidden = !info.server;
  $("#who-name").textContent = user ? user.name : "";
  $("#logoff").hidden = !user;
  $("#nav-logon").hidden = Boolean(user);
}

async function reloadInfo() {
  info = await getJson("/api/info");
  showWho();
}

// ---- Live --------------------------------------------------------------------------------

views.live = (() => {
  let source = null;
  let selected = null;
  let chart = null;

  function show() {
    connect();
  }

  function connect() {
    if (source) source.close();
    const query = selected ? `?key=${encodeURIComponent(selected)}` : "";
    source = new EventSource(`/api/live/events${query}`);
    source.onmessage = (event) => render(JSON.parse(event.data));
  }

  function render(data) {
    if ($("#view-live").hidden) return;
    $("#live-broker").textContent = data.broker ? `Broker: ${data.broker}` : "No broker (--mqtt): the folders only.";
    const body = $("#live-sources tbody");
    body.replaceChildren();
    for (const row of data.sources) {
      const hands = row.kind === "tournament"
        ? `${number(row.matches_done, 0)}/${number(row.matches_total, 0)} matches`
        : `${number(row.hands, 0)}` + (row.hands_total ? `/${number(row.hands_total, 0)}` : "");
      const status = row.status + (row.dropped ? `, ${row.dropped} dropped` : "");
      // Where it is: two match folders of the same name in different folders differ here.
      const where = row.folder ? joined(row.folder.root, row.folder.path) : "";
      const tr = el("tr", { "data-key": row.key, "data-status": row.status, class: row.key === selected ? "selected" : "" },
        el("td", { text: row.kind + (row.origin === "folder" ? " (folder)" : "") }),
        el("td", { class: "name" }, el("span", { text: row.name }),
          where && where !== row.name ? el("span", { class: "where", text: where }) : null),
        el("td", { text: (row.agents || []).join(" vs ") }),
        el("td", { class: "num", text: hands }),
        el("td", { class: "num", text: number(row.hands_per_s, 0) }),
        el("td", { class: "num", text: estimateText(row.mbb, row.ci) }),
        el("td", { class: "num", text: duration(row.eta_s) }),
        el("td", { class: `status-${row.status}`, text: status }));
      tr.addEventListener("click", () => { selected = row.key; connect(); });
      body.append(tr);
    }
    $("#live-empty").hidden = data.sources.length > 0;
    const detail = data.detail;
    $("#live-detail").hidden = !detail;
    if (!detail) return;
    $("#live-title").textContent = `${detail.name}`;
    const parts = [`status: ${detail.status}`];
    if (detail.agents && detail.agents.length) parts.push(`${detail.agents[0]}: ${estimateText(detail.mbb, detail.ci)} mbb/g (95% CI)`);
    if (detail.hands !== null && detail.hands !== undefined) parts.push(`${number(detail.hands, 0)} hands`);
    if (detail.hands_per_s) parts.push(`${number(detail.hands_per_s, 0)} hands/s`);
    if (detail.error) parts.push(`error: ${detail.error}`);
    $("#live-numbers").textContent = parts.join(" \u00b7 ");
    drawCurve(detail.curve);
    drawCrosstable(detail.crosstable);
    const links = $("#live-links");
    links.replaceChildren();
    if (detail.folder) {
      for (const log of detail.logs || []) {
        const path = joined(detail.folder.root, detail.folder.path, log);
        links.append(el("a", { href: `#replay/${path}`, text: `replay ${log}` }), " ");
      }
    }
  }

  function drawCurve(curve) {
    const box = $("#live-chart");
    const points = curve ? curve.hands.length : 0;
    box.dataset.points = String(points);
    box.hidden = !curve || points === 0;
    $("#live-chart-note").hidden = box.hidden;
    if (box.hidden) return;
    const data = [curve.hands, curve.bb, curve.low, curve.high];
    if (!chart) {
      const width = Math.min(960, box.parentElement.clientWidth || 900);
      chart = new uPlot({
        width, height: 320,
        scales: { x: { time: false } },
        // The y axis as wide as its widest tick label: with the default width, labels such
        // as -12,000 ran into the axis title.
        axes: [{ label: "hands" }, { label: "big blinds won", size: axisWidth }],
        series: [
          { label: "hands" },
          { label: "won (bb)", stroke: "#1565c0", width: 2 },
          { label: "95% low", stroke: "rgba(21,101,192,0.25)" },
          { label: "95% high", stroke: "rgba(21,101,192,0.25)" },
        ],
        bands: [{ series: [3, 2], fill: "rgba(21,101,192,0.12)" }],
      }, data, box);
    } else {
      chart.setData(data);
    }
  }

  // uPlot asks for an axis's size with its tick labels (its demo "axis-autosize"); after two
  // rounds the size it has is kept, so that the layout settles.
  function axisWidth(self, values, index, cycle) {
    const axis = self.axes[index];
    if (cycle > 1) return axis._size;
    const longest = (values || []).reduce((found, value) => (value.length > found.length ? value : found), "");
    let width = axis.ticks.size + axis.gap;
    if (longest) {
      self.ctx.font = axis.font[0];
      width += self.ctx.measureText(longest).width / devicePixelRatio;
    }
    return Math.ceil(width) + 8;
  }

  function drawCrosstable(table) {
    const box = $("#live-crosstable");
    box.replaceChildren();
    if (!table) return;
    const values = table.mbb_per_game.flat().filter((v) => v !== null);
    const largest = Math.max(1, ...values.map(Math.abs));
    const head = el("tr", {}, el("th", { text: "row vs column (mbb/g)" }), ...table.agents.map((a) => el("th", { text: a })));
    const rows = table.agents.map((agent, r) => el("tr", {}, el("th", { text: agent }),
      ...table.agents.map((_, c) => {
        const value = table.mbb_per_game[r][c];
        const cell = el("td", { text: value === null ? "" : signed(value), title: table.ci95[r][c] === null ? "" : `\u00b1 ${number(table.ci95[r][c])}` });
        if (value !== null) {
          const share = Math.min(1, Math.abs(value) / largest);
          cell.style.background = value >= 0 ? `rgba(26,127,55,${0.1 + 0.6 * share})` : `rgba(198,40,40,${0.1 + 0.6 * share})`;
        }
        cell.dataset.value = value === null ? "" : String(value);
        return cell;
      })));
    box.append(el("h3", { text: "Crosstable" }), el("table", { class: "grid heatmap" }, el("thead", {}, head), el("tbody", {}, ...rows)));
  }

  return { show };
})();

// ---- Replay ------------------------------------------------------------------------------

views.replay = (() => {
  let log = null; // { root, path }
  let twin = null; // the other half of its duplicate pair, when it lies beside it
  let wantedHand = null; // the hand to show once the log is read (from its twin)
  let offset = 0;
  let hand = null;
  let step = 0;

  async function show() {
    const files = await getJson("/api/files");
    const list = $("#replay-files");
    list.replaceChildren();
    for (const found of files.filter((f) => f.kind === "log")) {
      const item = el("li", { "data-root": found.root, "data-path": found.path },
        el("span", { text: `${found.root}/${found.path}` }), " ", el("span", { class: "tag", text: `${Math.round(found.size / 1024)} KB` }));
      item.addEventListener("click", () => { location.hash = `#replay/${found.root}/${found.path}`; });
      list.append(item);
    }
    if (!files.some((f) => f.kind === "log")) list.append(el("li", { class: "note", text: "no .log files in the folders given" }));
    const wanted = location.hash.split("/").slice(1);
    if (wanted.length >= 2) {
      const [root, ...rest] = wanted;
      const path = decodeURIComponent(rest.join("/"));
      if (!log || log.root !== root || log.path !== path) open(root, path);
    }
  }

  async function open(root, path) {
    log = { root, path };
    for (const item of $$("#replay-files li")) item.classList.toggle("selected", item.dataset.root === root && item.dataset.path === path);
    $("#replay-title").textContent = `${root}/${path}`;
    $("#replay-hand").hidden = true;
    $("#replay-count").textContent = "reading the log\u2026";
    offset = 0;
    await list(true);
  }

  function query(extra = {}) {
    const form = $("#replay-filter").elements;
    const params = new URLSearchParams({ root: log.root, path: log.path, order: form.order.value, offset: String(offset), limit: "100" });
    if (form.showdown.checked) params.set("showdown", "1");
    if (form.order.value === "loss" || form.player.value) params.set("player", form.player.value);
    if (form.number.value !== "") params.set("number", form.number.value);
    for (const [k, v] of Object.entries(extra)) params.set(k, v);
    return params;
  }

  async function list(fresh) {
    let data;
    try {
      data = await getJson(`/api/log?${query()}`);
    } catch (error) {
      $("#replay-count").textContent = `cannot read it: ${error.message}`;
      return;
    }
    $("#replay-filter").hidden = false;
    const form = $("#replay-filter").elements;
    if (fresh) {
      const chosen = form.player.value;
      form.player.replaceChildren(el("option", { value: "", text: "(anyone)" }), ...data.players.map((p) => el("option", { value: p, text: p })));
      if (data.players.includes(chosen)) form.player.value = chosen;
    }
    $("#replay-count").textContent = `${number(data.total, 0)} of ${number(data.hands, 0)} hands` + (data.probs ? " \u00b7 decision probabilities beside it (.probs)" : "");
    const body = $("#replay-hands tbody");
    if (offset === 0) body.replaceChildren();
    for (const row of data.rows) {
      const tr = el("tr", { "data-number": row.number },
        el("td", { class: "num", text: String(row.number) }),
        el("td", { text: row.names.join(" | ") }),
        el("td", { class: "num", text: String(row.pot) }),
        el("td", { text: row.names.map((n, i) => `${n} ${signed(row.values[i], 0)}`).join(", ") }),
        el("td", { text: row.showdown ? "yes" : "" }));
      tr.addEventListener("click", () => showHand(row.number));
      body.append(tr);
    }
    $("#replay-hands").hidden = false;
    $("#replay-more").hidden = offset + data.rows.length >= data.total;
    twin = data.twin;
    if (wantedHand !== null) {
      const number = wantedHand;
      wantedHand = null;
      showHand(number);
    }
  }

  async function showHand(numberWanted) {
    hand = await getJson(`/api/hand?${new URLSearchParams({ root: log.root, path: log.path, number: String(numberWanted) })}`);
    step = hand.steps.length;
    $("#replay-hand").hidden = false;
    $("#hand-title").textContent = `Hand ${hand.number}`;
    for (const tr of $$("#replay-hands tbody tr")) tr.classList.toggle("selected", Number(tr.dataset.number) === hand.number);
    renderHand();
    $("#replay-hand").scrollIntoView({ block: "nearest" });
  }

  function renderHand() {
    const steps = hand.steps;
    const shownRound = step === 0 ? 0 : steps[step - 1].round;
    const atEnd = step === steps.length;
    const seats = $("#hand-seats");
    seats.replaceChildren();
    hand.names.forEach((name, position) => {
      const value = atEnd ? el("span", { class: `value ${hand.values[position] >= 0 ? "plus" : "minus"}`, text: `${signed(hand.values[position], 0)} chips` }) : null;
      seats.append(el("div", { class: "seat", "data-position": position },
        el("span", { class: "name", text: `${name} (position ${position})` }), " ",
        el("span", { class: "cards" }, ...hand.holes[position].map((c) => card(c))), value));
    });
    const board = $("#hand-board");
    board.replaceChildren();
    hand.board.forEach((group, round) => {
      if (!group.length) return;
      const span = el("span", { class: "group", "data-round": round }, ...group.map((c) => card(c, round > shownRound ? "later" : "")));
      board.append(span);
    });
    $("#hand-pot").textContent = `pot ${step === 0 ? hand.blinds.reduce((a, b) => a + b, 0) : steps[step - 1].pot}`;
    const list = $("#hand-steps");
    list.replaceChildren();
    steps.forEach((s, i) => {
      const probs = s.probabilities ? el("span", { class: "probs", text: `fold ${number(s.probabilities[0], 2)} \u00b7 call ${number(s.probabilities[1], 2)} \u00b7 raise ${number(s.probabilities[2], 2)}` }) : null;
      const item = el("li", { class: i < step - 1 ? "" : i === step - 1 ? "now" : "future", "data-round": s.round, "data-action": s.action, "data-position": s.position },
        el("span", { text: `${roundName(s.round)}: ${s.name} ${s.label} (pot ${s.pot})` }), probs);
      item.addEventListener("click", () => { step = i + 1; renderHand(); });
      list.append(item);
    });
    $("#step-at").textContent = `${step}/${steps.length}`;
    $("#hand-result").textContent = atEnd ? `${hand.showdown ? "Showdown" : "A fold"}: ` + hand.names.map((n, i) => `${n} ${signed(hand.values[i], 0)}`).join(", ") : "";
    $("#hand-twin").hidden = !twin;
    if (twin) $("#hand-twin").title = `hand ${hand.number} of ${twin.root}/${twin.path}`;
    $("#hand-aivat").textContent = hand.aivat ? `AIVAT value: ` + hand.names.map((n, i) => `${n} ${signed(hand.aivat[i], 2)} chips`).join(", ") : "";
  }

  function move(to) {
    if (!hand) return;
    step = Math.max(0, Math.min(hand.steps.length, to));
    renderHand();
  }

  $("#hand-twin").addEventListener("click", () => {
    if (!twin || !hand) return;
    wantedHand = hand.number;
    location.hash = `#replay/${twin.root}/${twin.path}`;
  });
  $("#replay-filter").addEventListener("submit", (event) => { event.preventDefault(); offset = 0; list(false); });
  $("#replay-more").addEventListener("click", () => { offset += 100; list(false); });
  $("#step-first").addEventListener("click", () => move(0));
  $("#step-back").addEventListener("click", () => move(step - 1));
  $("#step-next").addEventListener("click", () => move(step + 1));
  $("#step-last").addEventListener("click", () => move(Infinity));
  document.addEventListener("keydown", (event) => {
    if ($("#view-replay").hidden || !hand || event.target.tagName === "INPUT") return;
    if (event.key === "ArrowRight") move(step + 1);
    if (event.key === "ArrowLeft") move(step - 1);
  });
  return { show };
})();

// ---- Play --------------------------------------------------------------------------------

views.play = (() => {
  let socket = null;
  let session = null;
  let table = null;
  let clock = null;
  let deadline = 0;

  function show() {
    const specs = $("#agent-specs");
    specs.replaceChildren(...info.agents.map((spec) => el("option", { value: spec })));
    $("#play-opponents").textContent = info.classes
      ? "an agent (acpcbot agents lists them, NAME:KEY=VALUE,... for options) or any module:Class"
      : "an agent acpcbot agents lists (NAME:KEY=VALUE,... for options); module:Class only if the server was started with --allow-classes";
    const wanted = location.hash.split("/")[1];
    if (wanted && wanted !== session) join(wanted);
  }

  async function start(event) {
    event.preventDefault();
    const form = $("#play-form").elements;
    const body = {
      name: form.name.value, opponent: form.opponent.value, hands: form.hands.value,
      seed: form.seed.value, duplicate: form.duplicate.checked, limit_s: form.limit_s.value,
    };
    if (form.host.value.trim()) Object.assign(body, { host: form.host.value.trim(), port: form.port.value });
    $("#play-error").textContent = "";
    const response = await fetch("/api/play", { method: "POST", credentials: "same-origin", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
    const data = await response.json();
    if (!response.ok) { $("#play-error").textContent = data.error; return; }
    location.hash = `#play/${data.key}`;
  }

  function join(key) {
    session = key;
    if (socket) socket.close();
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/api/play/${key}/ws`);
    socket.onmessage = (event) => {
      const data = JSON.parse(event.data);
      if (data.refused) { $("#play-error").textContent = data.refused; return; }
      render(data);
    };
    socket.onclose = () => { if (session === key && table && table.running) setTimeout(() => { if (session === key) join(key); }, 1000); };
    $("#play-form").hidden = true;
    $("#play-table").hidden = false;
  }

  function send(message) {
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
  }

  function seat(box, name, cards, spent) {
    $(".name", box).textContent = name;
    $(".cards", box).replaceChildren(...cards);
    $(".spent", box).textContent = spent;
  }

  function render(data) {
    table = data;
    const hand = data.hand || data.last;
    const half = data.halves > 1 ? ` \u00b7 half ${data.half} of ${data.halves}` : "";
    const words = { starting: "starting\u2026", playing: "playing", between: "the first half is over", finished: "finished", interrupted: "over", failed: "ended" };
    $("#play-status").textContent = `You (${data.you}) against ${data.opponent}${half}: ${words[data.status] || data.status}` + (data.message ? ` \u2014 ${data.message}` : "");
    $("#play-status").className = `status-${data.status}`;
    if (hand) {
      const me = hand.position;
      const them = 1 - me;
      seat($("#play-you"), `${data.you} (position ${me})`, hand.holes[me].map((c) => card(c)), "");
      const theirs = hand.holes[them] && hand.holes[them].length ? hand.holes[them].map((c) => card(c)) : [card(null), card(null)];
      seat($("#play-them"), `${data.opponent} (position ${them})`, theirs, "");
      $("#play-board").replaceChildren(...hand.board.flat().map((c) => card(c)));
      $("#play-pot").textContent = `hand ${hand.number} \u00b7 pot ${hand.pot ?? "-"}`;
      $("#play-pot").dataset.betting = hand.betting;
      $("#play-pot").dataset.hand = String(hand.number);
      $("#play-actions").replaceChildren(...hand.steps.map((s) => el("li", { "data-action": s.action, "data-position": s.position, text: `${roundName(s.round)}: ${s.position === me ? data.you : data.opponent} ${s.label}` })));
    }
    const buttons = $("#play-buttons");
    buttons.replaceChildren();
    const decision = data.decision;
    buttons.dataset.key = decision ? String(decision.key) : "";
    if (decision) {
      for (const legal of decision.legal) {
        const button = el("button", { "data-action": legal.action, text: legal.label });
        let size = null;
        if (legal.min !== undefined) {
          size = el("input", { type: "number", min: legal.min, max: legal.max, value: legal.min, size: 7 });
        }
        button.addEventListener("click", () => {
          buttons.replaceChildren();
          send({ type: "act", key: decision.key, action: legal.action, size: size ? Number(size.value) : null });
        });
        buttons.append(button);
        if (size) buttons.append(size);
      }
      deadline = Date.now() + decision.left_ms;
    }
    if (clock) clearInterval(clock);
    const tick = () => {
      const left = Math.max(0, (deadline - Date.now()) / 1000);
      $("#play-clock").textContent = decision ? `your turn: ${left.toFixed(0)} s left (limit ${data.limit_s} s per action)` : `time limit: ${data.limit_s} s per action`;
      $("#play-clock").classList.toggle("short", Boolean(decision) && left < 10);
    };
    tick();
    if (decision) clock = setInterval(tick, 250);
    const r = data.result;
    let result = `You: ${signed(r.chips, 0)} chips over ${r.hands} hands, ${estimateText(r.mbb, r.ci)} mbb/g (95% CI)`;
    if (r.pairs) result += ` \u00b7 over ${r.pairs.count} duplicate pairs: ${estimateText(r.pairs.mbb, r.pairs.ci)} mbb/g`;
    $("#play-result").textContent = result;
    $("#play-result").dataset.hands = String(r.hands);
    const last = data.last;
    $("#play-last").textContent = last ? lastHand(last, data) : "";
    $("#play-last").dataset.hand = last ? String(last.number) : "";
    $("#play-between").hidden = data.status !== "between";
    const over = ["finished", "interrupted", "failed"].includes(data.status);
    $("#play-summary").hidden = !data.summary;
    $("#play-summary").textContent = data.summary ? data.summary.join("\n") : "";
    const replay = $("#play-replay");
    replay.hidden = !(over && data.folder);
    if (data.folder) replay.href = `#replay/${joined(data.folder.root, data.folder.path, data.folder.log)}`;
    $("#play-again").hidden = !over;
    $("#play-table").dataset.status = data.status;
  }

  // The hand just over, in words: its result, each round's actions and the cards shown.
  function lastHand(last, data) {
    const who = (position) => (position === last.position ? "you" : data.opponent);
    const rounds = [];
    for (const step of last.steps) {
      const said = `${who(step.position)} ${step.label}`;
      if (rounds.length && rounds[rounds.length - 1].round === step.round) rounds[rounds.length - 1].said.push(said);
      else rounds.push({ round: step.round, said: [said] });
    }
    const shown = last.holes.map((cards, position) => (cards.length ? `${who(position)} ${cards.map(cardText).join(" ")}` : "")).filter((text) => text);
    const board = last.board.flat();
    return `Last hand (${last.number}): you ${signed(last.value, 0)} chips. `
      + rounds.map((r) => `${roundName(r.round)}: ${r.said.join(", ")}`).join("; ")
      + (shown.length ? `. Cards: ${shown.join(", ")}` : "")
      + (board.length ? `; board ${board.map(cardText).join(" ")}` : "") + ".";
  }

  $("#play-form").addEventListener("submit", start);
  $("#play-rematch").addEventListener("click", () => send({ type: "rematch", wanted: true }));
  $("#play-done").addEventListener("click", () => send({ type: "rematch", wanted: false }));
  $("#play-again").addEventListener("click", () => {
    session = null; table = null;
    if (socket) socket.close();
    $("#play-form").hidden = false;
    $("#play-table").hidden = true;
  });
  return { show };
})();

// ---- Log on (acpcbot serve) --------------------------------------------------------------

views.logon = (() => {
  function show() {
    $("#logon-error").textContent = "";
    $("#logon-form").elements.name.focus();
  }
  $("#logon-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("#logon-form").elements;
    try {
      await postJson("/api/logon", { name: form.name.value, secret: form.secret.value });
    } catch (error) {
      $("#logon-error").textContent = error.message;
      return;
    }
    form.secret.value = "";
    await reloadInfo();
    location.hash = "#mine";
  });
  $("#logoff").addEventListener("click", async () => {
    await postJson("/api/logoff").catch(() => null);
    await reloadInfo();
    location.hash = "#board";
    route();
  });
  return { show };
})();

// ---- Leaderboard (acpcbot serve) ----------------------------------------------------------

// A game file as a short name: holdem.limit.2p.reverse_blinds.game is "holdem.limit.2p".
const shortGame = (file) => file.replace(/\.reverse_blinds/, "").replace(/\.game$/, "");

views.board = (() => {
  async function show() {
    const data = await getJson("/api/leaderboard");
    const box = $("#board-boards");
    box.replaceChildren();
    const games = new Set(data.boards.map((b) => b.game));
    for (const board of data.boards) {
      const title = `vs ${board.bot}` + (games.size > 1 ? ` (${shortGame(board.game)})` : "");
      const rows = board.rows.map((row) => el("tr", { "data-user": row.user, "data-tag": row.tag },
        el("td", { class: "num", text: String(row.rank) }),
        el("td", { text: row.user }),
        el("td", { text: row.tag }),
        el("td", { class: `num ${row.mbb >= 0 ? "plus" : "minus"}`, text: estimateText(row.mbb, row.ci) }),
        el("td", { class: "num", text: number(row.pairs, 0) }),
        el("td", { class: "num", text: number(row.hands, 0) })));
      const table = el("table", { class: "grid board", "data-bot": board.bot, "data-game": board.game },
        el("thead", {}, el("tr", {}, ...["#", "user", "bot (tag)", "mbb/g (95% CI)", "pairs of runs", "hands"].map((h, i) => el("th", { class: i === 1 || i === 2 ? "" : "num", text: h })))),
        el("tbody", {}, ...rows));
      box.append(el("h2", { text: title }), rows.length ? table : el("p", { class: "note", text: "nobody yet" }));
    }
    $("#board-empty").hidden = data.boards.some((b) => b.rows.length);
  }
  return { show };
})();

// ---- My matches (acpcbot serve) -----------------------------------------------------------

views.mine = (() => {
  let source = null;
  let games = null;

  async function show() {
    const user = info.server && info.server.user;
    $("#mine-out").hidden = Boolean(user);
    $("#mine-in").hidden = !user;
    if (!user) return;
    if (!games) {
      games = await getJson("/api/games");
      $("#submit-game").replaceChildren(...games.games.map((g) => el("option", { value: g.game, text: shortGame(g.game) })));
      $("#submit-form").elements.duplicate.checked = games.games.some((g) => g.players === 2);
      seats();
    }
    if (source) source.close();
    source = new EventSource("/api/my/events");
    source.onmessage = (event) => render(JSON.parse(event.data));
  }

  function hide() {
    if (source) source.close();
    source = null;
  }

  // One choice a seat, in seat order: your bot (LOCAL) or a house bot of the game.
  function seats() {
    const game = games.games.find((g) => g.game === $("#submit-game").value);
    const box = $("#submit-seats");
    box.replaceChildren();
    if (!game) return;
    for (let seat = 0; seat < game.players; seat += 1) {
      const choices = ["LOCAL", ...game.bots].map((name) => el("option", { value: name, text: name === "LOCAL" ? "your bot (LOCAL)" : name }));
      const select = el("select", { name: `seat${seat}`, "data-seat": seat }, ...choices);
      select.value = seat === 0 ? "LOCAL" : (game.bots[0] || "LOCAL");
      box.append(el("label", { text: `seat ${seat + 1} ` }, select));
    }
  }

  async function submit(event) {
    event.preventDefault();
    const form = $("#submit-form").elements;
    const players = $$("#submit-seats select").map((select) => select.value);
    $("#submit-error").textContent = "";
    try {
      await postJson("/api/my/requests", {
        game: form.game.value, runs: Number(form.runs.value), tag: form.tag.value.trim(),
        seed: form.seed.value === "" ? 0 : Number(form.seed.value), players, duplicate: form.duplicate.checked,
      });
    } catch (error) {
      $("#submit-error").textContent = error.message;
    }
  }

  function render(data) {
    if ($("#view-mine").hidden) return;
    $("#mine-bot").textContent = data.present
      ? "Your bot is connected (a line client logged on, or the bot stream open): runs with your bot start as their turn comes."
      : `Your bot is not connected: runs with your bot (LOCAL) wait. Connect with bm_widget or acpcbot connect to ${info.server.host}:${info.server.port}, or open the bot stream (GET /api/my/bot).`;
    $("#mine-bot").dataset.present = String(data.present);
    const body = $("#mine-requests tbody");
    body.replaceChildren();
    for (const request of data.requests) body.append(requestRow(request), ...request.runs_detail.map((run) => runRow(run)));
    $("#mine-none").hidden = data.requests.length > 0;
    const results = $("#mine-results tbody");
    results.replaceChildren(...data.results.map((r) => el("tr", { "data-tag": r.tag, "data-opponent": r.opponent, "data-kind": r.kind },
      el("td", { text: r.tag }), el("td", { text: r.opponent }),
      el("td", { text: r.kind === "pairs" ? `${number(r.samples, 0)} duplicate pairs` : `${number(r.samples, 0)} hands` }),
      el("td", { class: `num ${r.mbb >= 0 ? "plus" : "minus"}`, text: estimateText(r.mbb, r.ci) }))));
    $("#mine-no-results").hidden = data.results.length > 0;
  }

  function requestRow(request) {
    const what = `${request.tag} · ${request.players.join(" vs ")} · ${request.runs} ${request.duplicate ? "duplicate " : ""}run${request.runs === 1 ? "" : "s"}`;
    let state = request.state;
    if (request.waits_for_bot) state += ", waits for your bot";
    else if (request.running) state = "playing";
    const cancel = request.state === "queued" ? el("button", { class: "cancel", text: "Cancel", title: "no more runs start; a run playing stops after its hand" }) : null;
    if (cancel) {
      cancel.addEventListener("click", async () => {
        cancel.disabled = true;
        await postJson(`/api/my/requests/${request.id}/cancel`).catch((error) => { $("#submit-error").textContent = error.message; });
      });
    }
    const shown = request.running ? "playing" : request.state;
    return el("tr", { class: "request", "data-request": request.id, "data-state": request.state },
      el("td", { title: request.game }, el("strong", { text: what })),
      el("td", { class: `status-${shown}`, text: state }),
      el("td", { class: "num", text: `${request.started}/${request.jobs} runs` }),
      el("td", {}), el("td", {}, cancel));
  }

  function runRow(run) {
    const result = run.pair
      ? `pair ${estimateText(run.pair.mbb, run.pair.ci)}`
      : run.result ? estimateText(run.result.mbb, run.result.ci) : "";
    let state = run.state;
    if (run.connect.length) state += `: your bot to ${run.connect.map((c) => `${c.host} ${c.port}`).join(", ")}`;
    if (run.error) state += ` — ${run.error}`;
    const hands = `${number(run.hands, 0)}` + (run.hands_total ? `/${number(run.hands_total, 0)}` : "");
    const log = el("a", { href: run.log, text: "log", download: `${run.name}.log`, title: `download ${run.name}.log` });
    return el("tr", { class: "run", "data-run": run.id, "data-state": run.state, "data-hands": run.hands },
      el("td", { class: "indent", text: run.name }),
      el("td", { class: `status-${run.state}`, text: state }),
      el("td", { class: "num", text: hands }),
      el("td", { class: "num", text: result }),
      el("td", {}, log));
  }

  $("#submit-form").addEventListener("submit", submit);
  $("#submit-game").addEventListener("change", seats);
  return { show, hide };
})();

// ---- Admin (acpcbot serve) ----------------------------------------------------------------

views.admin = (() => {
  let timer = null;

  async function show() {
    await refresh();
    if (timer) clearInterval(timer);
    timer = setInterval(() => { if (!$("#view-admin").hidden) refresh(); }, 2000);
  }

  function hide() {
    if (timer) clearInterval(timer);
    timer = null;
  }

  function said(error) {
    $("#admin-error").textContent = error ? error.message : "";
  }

  async function act(url, then) {
    try {
      const data = await postJson(url);
      said(null);
      if (then) then(data);
    } catch (error) {
      said(error);
    }
    await refresh();
  }

  function showSecret(data) {
    const box = $("#admin-secret");
    box.hidden = false;
    box.replaceChildren(`${data.name}'s secret (shown once, pass it on): `, el("code", { text: data.secret }));
  }

  async function refresh() {
    let users, queue;
    try {
      [users, queue] = await Promise.all([getJson("/api/admin/users"), getJson("/api/admin/queue")]);
    } catch (error) {
      said(error);
      return;
    }
    const body = $("#admin-users tbody");
    body.replaceChildren(...users.users.map((user) => {
      const buttons = el("td", {});
      const toggle = el("button", { text: user.disabled ? "Enable" : "Disable", "data-action": user.disabled ? "enable" : "disable" });
      toggle.addEventListener("click", () => act(`/api/admin/users/${encodeURIComponent(user.name)}/${toggle.dataset.action}`));
      const reset = el("button", { text: "Reset secret", "data-action": "reset" });
      reset.addEventListener("click", () => act(`/api/admin/users/${encodeURIComponent(user.name)}/reset`, showSecret));
      buttons.append(toggle, " ", reset);
      return el("tr", { "data-user": user.name },
        el("td", { text: user.name }), el("td", { text: user.admin ? "admin" : "user" }),
        el("td", { class: user.disabled ? "status-failed" : "", text: user.disabled ? "disabled" : "enabled" }),
        el("td", { text: new Date(user.created * 1000).toISOString().slice(0, 16).replace("T", " ") + " UTC" }), buttons);
    }));
    const playing = new Map();
    for (const run of queue.playing) playing.set(run.request, [...(playing.get(run.request) || []), run]);
    const rows = queue.requests.map((request) => {
      const cancel = el("button", { text: "Cancel", class: "cancel" });
      cancel.addEventListener("click", () => act(`/api/admin/requests/${request.id}/cancel`));
      const runs = (playing.get(request.id) || []).map((run) => `${run.run} (${number(run.hands, 0)} hands)`).join(", ");
      return el("tr", { "data-request": request.id, "data-user": request.user },
        el("td", { text: request.user }),
        el("td", { text: `${request.tag} · ${request.players.join(" vs ")}`, title: request.game }),
        el("td", { text: request.waits_for_bot ? "waits for the user's bot" : request.running ? "playing" : "queued" }),
        el("td", { class: "num", text: `${request.started}/${request.jobs}` }),
        el("td", { text: runs }), el("td", {}, cancel));
    });
    $("#admin-queue tbody").replaceChildren(...rows);
    $("#admin-empty").hidden = rows.length > 0;
  }

  $("#user-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = $("#user-form").elements;
    try {
      showSecret(await postJson("/api/admin/users", { name: form.name.value.trim(), admin: form.admin.checked }));
      form.name.value = "";
      said(null);
    } catch (error) {
      said(error);
    }
    await refresh();
  });
  return { show, hide };
})();

// ---- start -------------------------------------------------------------------------------

window.addEventListener("hashchange", route);
getJson("/api/info").then((data) => {
  info = data;
  showWho();
  $("#folders").textContent = data.folders.length ? `serving ${data.folders.map((f) => f.key).join(", ")}` : (data.server ? "" : "no folders given");
  route();
}).catch((error) => { document.body.prepend(el("p", { class: "error", text: `acpcbot web: ${error.message}` })); });
