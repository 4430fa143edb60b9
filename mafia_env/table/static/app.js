// The Mafia table page: a host form, or one seat's view of a game over a WebSocket.
// Everything shown comes from the server: the state message for this seat and the words
// of the chosen language (/api/words). Text is set with textContent only, never parsed
// as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const TEAM = { civilian: "town", sheriff: "town", doctor: "town", putana: "town",
               mafia: "mafia", don: "mafia", maniac: "maniac" };
// close codes of the server (mafia_env.table.seats.Close) -> the reason shown
const CLOSED = { 4400: "bad_lang", 4403: "bad_token", 4404: "no_table", 4410: "expired",
                 4429: "full" };
// action groups a narrow screen shows folded at first (claims: many seat buttons each)
const FOLDED = new Set(["claim_role", "claim_check", "accuse", "vouch", "ask"]);
const narrow = window.matchMedia("(max-width: 640px)");
const REPLACED = 4409;
let W = null;  // the words of the page's language: {lang, page, roles, languages}

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function fmt(text, fields) {
  return text.replace(/\{(\w+)\}/g, (m, k) => (k in fields ? String(fields[k]) : m));
}

function w(key, fields) {
  return fmt(W.page[key] || key, fields || {});
}

function roleName(role) {
  return (W.roles && W.roles[role]) || role || "";
}

function toast(message) {
  const t = $("#toast");
  t.textContent = message;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 3500);
}

async function loadWords() {
  // the language: ?lang=, else the browser's if offered, else English
  let lang = params.get("lang") || (navigator.language || "en").slice(0, 2);
  let res = await fetch(`/api/words?lang=${encodeURIComponent(lang)}`);
  if (!res.ok) {
    lang = "en";
    res = await fetch("/api/words?lang=en");
  }
  W = await res.json();
  document.documentElement.lang = W.lang;
  document.title = W.page.title;
  for (const e of document.querySelectorAll("[data-w]")) e.textContent = w(e.dataset.w);
  $("#say").placeholder = w("say_hint");
  const sel = $("#lang");
  sel.replaceChildren();
  for (const [code, name] of Object.entries(W.languages)) {
    const o = el("option", null, name);
    o.value = code;
    sel.append(o);
  }
  sel.value = W.lang;
  sel.addEventListener("change", () => {
    // the page comes back in the new language; a seat's link opens the same seat
    params.set("lang", sel.value);
    if (ws) { ws.fatal = true; ws.close(); }
    location.search = `?${params}`;
  });
}

// ------------------------------------------------------------------ host
let options = null;

async function host() {
  $("#host").hidden = false;
  $("#subtitle").textContent = w("set_table");
  options = await (await fetch("/api/options")).json();
  const variant = $("#variant");
  for (const [name, v] of Object.entries(options.variants)) {
    const o = el("option", null, W.page.variants[name] || v.title);
    o.value = name;
    if (name === "sport") o.selected = true;
    variant.append(o);
  }
  $("#bot-delay").value = options.defaults.bot_delay;
  $("#turn-timeout").value = options.defaults.turn_timeout || 0;
  $("#night-turn").value = options.defaults.night_turn || 0;
  variant.addEventListener("change", () => setSeats(true));
  $("#num").addEventListener("change", () => setSeats(false));
  setSeats(true);
  $("#host-form").addEventListener("submit", createTable);
}

function setSeats(resetCount) {
  const v = options.variants[$("#variant").value];
  const num = $("#num");
  num.min = v.min;
  num.max = v.max;
  if (resetCount || !num.value) num.value = v.default;
  const n = Math.max(v.min, Math.min(v.max, Number(num.value) || v.default));
  num.value = n;
  const body = $("#seat-rows tbody");
  const old = [...body.querySelectorAll("select")].map((s) => s.value);
  body.replaceChildren();
  for (let s = 1; s <= n; s++) {
    const row = el("tr");
    row.append(el("td", null, String(s)));
    const cell = el("td");
    const sel = el("select");
    sel.id = `who-${s}`;
    const person = el("option", null, w("a_person"));
    person.value = "person";
    sel.append(person);
    for (const b of options.bots) {
      const model = (options.models || []).includes(b);
      const o = el("option", null, w(model ? "a_model" : "a_bot", { name: b }));
      o.value = `bot:${b}`;
      sel.append(o);
    }
    sel.value = old[s - 1] || (s === 1 ? "person" : `bot:${options.defaults.bot}`);
    cell.append(sel);
    row.append(cell);
    body.append(row);
  }
}

async function createTable(ev) {
  ev.preventDefault();
  const n = Number($("#num").value);
  const humans = [];
  const bots = {};
  for (let s = 1; s <= n; s++) {
    const who = $(`#who-${s}`).value;
    if (who === "person") humans.push(s);
    // a seat left to the default bot is not named: the server seats the default (filler),
    // or the bot that stands in where the filler cannot play this variant and size
    else if (who !== `bot:${options.defaults.bot}`) bots[s] = who.slice(4);
  }
  const config = {
    variant: $("#variant").value, num_players: n, humans, bots,
    bot_delay: Number($("#bot-delay").value),
    turn_timeout: Number($("#turn-timeout").value) || null,
    night_turn: Number($("#night-turn").value) || null,
  };
  if ($("#seed").value !== "") config.seed = Number($("#seed").value);
  // a first table may take seconds (its bots are loaded): the button says it is at work
  const form = $("#host-form");
  const button = form.querySelector("button[type=submit]");
  button.disabled = true;
  button.textContent = w("creating");
  form.setAttribute("aria-busy", "true");
  try {
    let data;
    let ok = false;
    try {
      // the host's language: the server answers in it, and puts it in the seats' links
      const res = await fetch(`/api/tables?lang=${encodeURIComponent(W.lang)}`, {
        method: "POST", headers: { "Content-Type": "application/json" },
        body: JSON.stringify(config),
      });
      ok = res.ok;
      data = await res.json();
    } catch (e) {
      data = { error: w("reconnecting") };
    }
    if (!ok) {
      $("#host-error").textContent = data.error;
      return;
    }
    showLinks(data);
  } finally {
    button.disabled = false;
    button.textContent = w("create");
    form.setAttribute("aria-busy", "false");
  }
}

function showLinks(data) {
  $("#host-error").textContent = "";
  const list = $("#link-list");
  list.replaceChildren();
  const add = (label, href) => {
    const li = el("li", null, `${label}: `);
    const a = el("a", null, new URL(href, location.href).href);
    a.href = href;
    a.target = "_blank";
    li.append(a);
    list.append(li);
  };
  for (const [seat, href] of Object.entries(data.seats)) add(w("seat_link", { s: seat }), href);
  add(w("watch_link"), data.watch);
  $("#links").hidden = false;
}

// ------------------------------------------------------------------ seat
let ws = null;
let state = null;
let log = [];  // the moderator's lines so far: the server sends only the new ones
let clockTimer = null;
let retries = 0;
const folds = new Map();  // a group's title -> whether the person opened it (true) or folded it

function setOffline(off) {
  // while the connection is down the page says so, and nothing can be sent: the buttons
  // and the talk box wait, the clock stands still (the server's clock goes on)
  $("#offline").hidden = !off;
  document.body.classList.toggle("offline", off);
  for (const b of document.querySelectorAll("#actions button")) b.disabled = off;
  $("#say").disabled = off;
  if (off) {
    clearInterval(clockTimer);
    $("#clock").classList.add("stopped");
  }
}

function connect() {
  $("#game").hidden = false;
  $("#closed").hidden = true;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams({ seat: params.get("seat"), token: params.get("token") || "",
                                  lang: W.lang });
  const sock = new WebSocket(`${proto}://${location.host}/ws/${params.get("table")}?${q}`);
  ws = sock;
  sock.onopen = () => { retries = 0; $("#status").textContent = w("connected"); };
  sock.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error") {
      if (msg.fatal) sock.detail = msg.message;
      else toast(msg.message);
    } else if (msg.type === "state") {
      if (msg.log_from === 0) log = [];
      if (msg.log_from !== log.length) { sock.close(); return; }  // out of step: start over
      render(msg);
    }
  };
  sock.onclose = (ev) => {
    if (ws !== sock || sock.fatal) return;
    if (ev.code in CLOSED) return closed("closed_title", CLOSED[ev.code], sock.detail);
    if (ev.code === REPLACED) return closed("replaced_title", null, null, true);
    if (state && state.phase === "over") return;
    $("#status").textContent = w("reconnecting");
    setOffline(true);
    retries += 1;
    setTimeout(connect, Math.min(5000, 500 * retries));  // come back to the same seat
  };
}

function closed(title, reason, detail, canReturn) {
  // a clear page instead of the table: why this link shows no game, and what to do
  $("#game").hidden = true;
  $("#closed").hidden = false;
  $("#offline").hidden = true;
  $("#closed-title").textContent = w(title);
  $("#closed-reason").textContent = reason
    ? W.page.reasons[reason] || w(`reason_${reason}`) : w("replaced_help");
  $("#closed-detail").textContent = detail || "";
  $("#closed-help").textContent = canReturn ? "" : w("closed_help");
  $("#new-table").hidden = !!canReturn;
  const back = $("#take-back");
  back.hidden = !canReturn;
  back.onclick = connect;
  $("#status").textContent = "";
  clearInterval(clockTimer);
}

function remark() {
  // Enter in the talk box: the remark alone, heard by everyone at once; the speech goes on
  const talk = $("#say");
  const say = talk.value.trim();
  if (!say || !state || !state.may_talk || !ws || ws.readyState !== WebSocket.OPEN) return;
  ws.send(JSON.stringify({ type: "say", say }));
  talk.value = "";
}

function act(id) {
  if (ws && ws.readyState === WebSocket.OPEN) {
    const talk = $("#say");  // table talk, sent with a speech act
    const say = talk && state && state.may_talk ? talk.value.trim() : "";
    ws.send(JSON.stringify(say ? { type: "act", action: id, say } : { type: "act", action: id }));
    if (say) talk.value = "";
    $("#actions").replaceChildren(el("p", "muted", "..."));
  }
}

function render(s) {
  state = s;
  $("#subtitle").textContent = W.page.variants[s.variant] || s.title;
  $("#status").textContent = s.you ? w("status_seat", { table: s.table, s: s.you })
    : w("status_watch", { table: s.table });
  renderSeats(s);
  renderCenter(s);
  renderMe(s);
  $("#talk").hidden = !s.may_talk;
  renderActions(s);
  setOffline(false);
  renderNarration(s);
}

function renderSeats(s) {
  const table = $("#table");
  table.querySelectorAll(".card").forEach((c) => c.remove());
  const n = s.seats.length;
  // around the table: seat 1 at the bottom-left, then clockwise; you at the bottom.
  // On a phone the cards are a grid in seat order (style.css) and these places are unused.
  const offset = s.you ? s.you - 1 : 0;
  s.seats.forEach((seat, i) => {
    const k = (i - offset + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    const card = el("div", "card");
    card.dataset.seat = seat.seat;
    card.style.setProperty("--x", `${50 + 43 * Math.cos(angle)}%`);
    card.style.setProperty("--y", `${50 + 41 * Math.sin(angle)}%`);
    if (!seat.alive) card.classList.add("out");
    if (seat.acting) card.classList.add("acting");
    if (seat.nominated) {
      card.classList.add("nominated");
      card.dataset.badge = w("nominated");
    }
    if (seat.seat === s.you) card.classList.add("you");
    card.append(el("div", "num", String(seat.seat)));
    const label = seat.seat === s.you ? w("card_you")
      : seat.kind === "bot" ? w("card_bot", { name: seat.bot }) : w("card_person");
    card.append(el("div", "who", seat.alive ? label : w("card_out", { who: label })));
    const role = el("div", `role ${TEAM[seat.role] || ""}`, roleName(seat.role));
    if (seat.role) role.dataset.role = seat.role;
    card.append(role);
    card.append(el("div", "fouls", seat.fouls ? Array(seat.fouls).fill(w("foul")).join(" ") : ""));
    card.title = seat.acting ? w("acting") : "";
    table.append(card);
  });
}

function renderCenter(s) {
  let phase = W.page.phases[s.phase] || s.phase;
  if (!s.started) phase = w("waiting_for", { seats: s.waiting_for.join(", ") });
  else if (s.phase === "night") phase = s.day ? w("night_n", { d: s.day }) : phase;
  else if (s.day && s.phase !== "over") phase = w("day_phase", { d: s.day, phase });
  $("#phase").textContent = phase;
  $("#felt").classList.toggle("night", s.phase === "night");
  const who = s.your_turn ? w("your_turn") : s.actor ? w("player_n", { s: s.actor }) : "";
  $("#outcome").textContent = s.winner ? W.page.winners[s.winner] || s.winner : who;
  clearInterval(clockTimer);
  const clock = $("#clock");
  clock.textContent = "";
  clock.classList.remove("stopped");
  if (s.time_left !== null && s.time_left !== undefined) {
    const end = Date.now() + s.time_left * 1000;
    const tick = () => {
      clock.textContent = w("seconds", { n: Math.max(0, Math.ceil((end - Date.now()) / 1000)) });
    };
    tick();
    clockTimer = setInterval(tick, 250);
  }
}

function renderMe(s) {
  const me = $("#me");
  me.replaceChildren();
  if (!s.you) {
    me.append(el("div", null, w("watching")));
    return;
  }
  me.append(el("div", null, w("you_sit", { s: s.you })));
  const role = el("div", `role-big ${TEAM[s.role] || ""}`,
                  s.role ? w("you_are", { role: roleName(s.role) }) : "");
  me.append(role);
  const mates = s.seats.filter((x) => x.seat !== s.you && x.role && TEAM[x.role] === "mafia"
                                       && TEAM[s.role] === "mafia" && s.phase !== "over");
  if (mates.length) me.append(el("div", null, w("your_team", { seats: mates.map((m) => m.seat).join(", ") })));
  if (s.record) me.append(el("div", null, w("saved_as", { name: s.record })));
}

function renderActions(s) {
  const box = $("#actions");
  box.replaceChildren();
  $("#moves").hidden = !s.you;  // a watcher has no moves
  $("#moves").classList.toggle("your-turn", s.your_turn);
  $("#moves-title").textContent = s.your_turn ? w("your_turn") : w("your_moves");
  if (!s.you) return;
  if (!s.actions.length) {
    const mine = s.seats.find((x) => x.seat === s.you);
    const why = s.phase === "over" ? w("game_over")
      : !s.started ? w("wait_start")
      : mine && !mine.alive ? w("you_are_out") : w("wait_turn");
    box.append(el("p", "muted", why));
    return;
  }
  for (const g of s.actions) {
    // a titled group folds (a claim's ten seat buttons); a phone shows the claims folded
    const group = el(g.title ? "details" : "div", "group");
    group.dataset.kind = g.kind;
    if (g.title) {
      const key = g.title;
      group.open = folds.has(key) ? folds.get(key) : !(narrow.matches && FOLDED.has(g.kind));
      group.append(el("summary", "title", g.title));
      group.addEventListener("toggle", () => folds.set(key, group.open));
    }
    for (const a of g.actions) {
      const targeted = /^\d+$/.test(a.label);
      const b = el("button", targeted ? "seat-btn" : g.kind === "pass" ? "primary" : "", a.label);
      b.title = a.text;
      b.dataset.action = a.id;
      b.setAttribute("aria-label", a.text);
      b.addEventListener("click", () => act(a.id));
      group.append(b);
    }
    box.append(group);
  }
}

function renderNarration(s) {
  // only the new lines are added; the flags, not the words, say how a line is shown
  const list = $("#narration");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  if (s.log_from === 0) list.replaceChildren();
  for (const line of s.log) {
    const cls = [line.mark, line.mine ? "mine" : "", line.private ? "private" : ""];
    list.append(el("li", cls.filter(Boolean).join(" "), line.text));
    log.push(line);
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}

$("#say").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.isComposing) {
    ev.preventDefault();
    remark();
  }
});
loadWords().then(() => (params.get("table") ? connect() : host()));
