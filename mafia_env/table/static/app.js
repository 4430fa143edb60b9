// The Mafia table page: a host form, or one seat's view of a game over a WebSocket.
// Everything shown comes from the server's state message for this seat; text is set with
// textContent only, never parsed as HTML.
"use strict";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const TEAM = { civilian: "town", sheriff: "town", doctor: "town", putana: "town",
               mafia: "mafia", don: "mafia", maniac: "maniac" };
const PHASE = {
  speech: "Day: speeches", last_word: "A last word", tie_speech: "Speeches before the re-vote",
  vote: "The vote", crash_vote: "Remove all the tied?", night: "Night: the town sleeps",
  over: "The game is over",
};

function el(tag, cls, text) {
  const e = document.createElement(tag);
  if (cls) e.className = cls;
  if (text !== undefined && text !== null) e.textContent = text;
  return e;
}

function toast(message) {
  const t = $("#toast");
  t.textContent = message;
  t.classList.add("show");
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => t.classList.remove("show"), 3500);
}

// ------------------------------------------------------------------ host
let options = null;

async function host() {
  $("#host").hidden = false;
  $("#subtitle").textContent = "set a table";
  options = await (await fetch("/api/options")).json();
  const variant = $("#variant");
  for (const [name, v] of Object.entries(options.variants)) {
    const o = el("option", null, `${v.title}`);
    o.value = name;
    if (name === "sport") o.selected = true;
    variant.append(o);
  }
  $("#bot-delay").value = options.defaults.bot_delay;
  $("#turn-timeout").value = options.defaults.turn_timeout || 0;
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
    const person = el("option", null, "a person");
    person.value = "person";
    sel.append(person);
    for (const b of options.bots) {
      const o = el("option", null, `bot: ${b}`);
      o.value = `bot:${b}`;
      sel.append(o);
    }
    const path = el("option", null, "bot: checkpoint file...");
    path.value = "path";
    sel.append(path);
    sel.value = old[s - 1] || (s === 1 ? "person" : `bot:${options.bots[0]}`);
    const file = el("input");
    file.placeholder = "path/to/checkpoint.pt";
    file.id = `path-${s}`;
    file.hidden = sel.value !== "path";
    sel.addEventListener("change", () => { file.hidden = sel.value !== "path"; });
    cell.append(sel, " ", file);
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
    else if (who === "path") bots[s] = $(`#path-${s}`).value.trim();
    else bots[s] = who.slice(4);
  }
  const config = {
    variant: $("#variant").value, num_players: n, humans, bots,
    bot_delay: Number($("#bot-delay").value),
    turn_timeout: Number($("#turn-timeout").value) || null,
  };
  if ($("#seed").value !== "") config.seed = Number($("#seed").value);
  const res = await fetch("/api/tables", {
    method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(config),
  });
  const data = await res.json();
  if (!res.ok) {
    $("#host-error").textContent = data.error;
    return;
  }
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
  for (const [seat, href] of Object.entries(data.seats)) add(`Seat ${seat}`, href);
  add("Watch (host, public view)", data.watch);
  $("#links").hidden = false;
}

// ------------------------------------------------------------------ seat
let ws = null;
let state = null;
let clockTimer = null;
let retries = 0;

function connect() {
  $("#game").hidden = false;
  const proto = location.protocol === "https:" ? "wss" : "ws";
  const q = new URLSearchParams({ seat: params.get("seat"), token: params.get("token") || "",
                                  lang: params.get("lang") || "en" });
  const sock = new WebSocket(`${proto}://${location.host}/ws/${params.get("table")}?${q}`);
  ws = sock;
  sock.onopen = () => { retries = 0; $("#status").textContent = "connected"; };
  sock.onmessage = (ev) => {
    const msg = JSON.parse(ev.data);
    if (msg.type === "error") {
      toast(msg.message);
      if (msg.fatal) { $("#status").textContent = msg.message; sock.fatal = true; }
    } else if (msg.type === "state") {
      render(msg);
    }
  };
  sock.onclose = () => {
    if (sock.fatal || (state && state.phase === "over")) return;
    $("#status").textContent = "disconnected: reconnecting...";
    retries += 1;
    setTimeout(connect, Math.min(5000, 500 * retries));  // come back to the same seat
  };
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
  $("#subtitle").textContent = s.title;
  const who = s.you ? `seat ${s.you}` : "watching";
  $("#status").textContent = `table ${s.table} · ${who}`;
  renderSeats(s);
  renderCenter(s);
  renderMe(s);
  const talk = $("#say");
  if (talk) talk.hidden = !s.may_talk;
  renderActions(s);
  renderNarration(s);
}

function renderSeats(s) {
  const table = $("#table");
  table.querySelectorAll(".card").forEach((c) => c.remove());
  const n = s.seats.length;
  // seat 1 at the bottom-left, then clockwise, as around a real table; you at the bottom
  const offset = s.you ? s.you - 1 : 0;
  s.seats.forEach((seat, i) => {
    const k = (i - offset + n) % n;
    const angle = Math.PI / 2 + (2 * Math.PI * k) / n;
    const x = 50 + 43 * Math.cos(angle);
    const y = 50 + 41 * Math.sin(angle);
    const card = el("div", "card");
    card.dataset.seat = seat.seat;
    card.style.left = `${x}%`;
    card.style.top = `${y}%`;
    if (!seat.alive) card.classList.add("out");
    if (seat.acting) card.classList.add("acting");
    if (seat.nominated) card.classList.add("nominated");
    if (seat.seat === s.you) card.classList.add("you");
    card.append(el("div", "num", String(seat.seat)));
    const label = seat.seat === s.you ? "you" : seat.kind === "bot" ? `bot · ${seat.bot}` : "person";
    card.append(el("div", "who", seat.alive ? label : `${label} · out`));
    card.append(el("div", `role ${TEAM[seat.role] || ""}`, seat.role || ""));
    card.append(el("div", "fouls", seat.fouls ? "foul ".repeat(seat.fouls).trim() : ""));
    card.title = seat.acting ? "acting now" : "";
    table.append(card);
  });
}

function renderCenter(s) {
  let phase = PHASE[s.phase] || s.phase;
  if (!s.started) phase = `Waiting for seats ${s.waiting_for.join(", ")}`;
  else if (s.phase === "night") phase = s.day ? `Night ${s.day}: the town sleeps` : phase;
  else if (s.day && s.phase !== "over") phase = `Day ${s.day} · ${phase}`;
  $("#phase").textContent = phase;
  $("#felt").classList.toggle("night", s.phase === "night");
  const who = s.your_turn ? "Your turn" : s.actor ? `Player ${s.actor}` : "";
  $("#outcome").textContent = s.winner ? `Winner: ${s.winner}` : who;
  clearInterval(clockTimer);
  const clock = $("#clock");
  clock.textContent = "";
  if (s.time_left !== null && s.time_left !== undefined) {
    const end = Date.now() + s.time_left * 1000;
    const tick = () => {
      clock.textContent = `${Math.max(0, Math.ceil((end - Date.now()) / 1000))} s`;
    };
    tick();
    clockTimer = setInterval(tick, 250);
  }
}

function renderMe(s) {
  const me = $("#me");
  me.replaceChildren();
  if (!s.you) {
    me.append(el("div", null, "You are watching: you see what everyone sees."));
    return;
  }
  me.append(el("div", null, `You sit in seat ${s.you}.`));
  const role = el("div", `role-big ${TEAM[s.role] || ""}`, s.role ? `You are the ${s.role}` : "");
  me.append(role);
  const mates = s.seats.filter((x) => x.seat !== s.you && x.role && TEAM[x.role] === "mafia"
                                       && TEAM[s.role] === "mafia" && s.phase !== "over");
  if (mates.length) me.append(el("div", null, `Your team: ${mates.map((m) => m.seat).join(", ")}`));
  if (s.record) me.append(el("div", null, `The game is saved as ${s.record}.`));
}

function renderActions(s) {
  const box = $("#actions");
  box.replaceChildren();
  $("#moves").classList.toggle("your-turn", s.your_turn);
  $("#moves-title").textContent = s.your_turn ? "Your turn" : "Your moves";
  if (!s.you) return;
  if (!s.actions.length) {
    const why = s.phase === "over" ? "The game is over." :
      !s.started ? "The game begins when every person has joined." : "Wait for your turn.";
    box.append(el("p", "muted", why));
    return;
  }
  for (const g of s.actions) {
    const group = el("div", "group");
    group.dataset.kind = g.kind;
    if (g.title) group.append(el("div", "title", g.title));
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
  const list = $("#narration");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  list.replaceChildren();
  const mine = s.you ? new RegExp(`^Player ${s.you}(,|:)`) : null;
  for (const line of s.narration) {
    let cls = "";
    if (/^Day \d+ begins/.test(line)) cls = "day";
    else if (/^(Night \d+ falls|The zero night)/.test(line)) cls = "night";
    else if (mine && mine.test(line)) cls = "mine";
    list.append(el("li", cls, line));
  }
  if (atEnd) list.scrollTop = list.scrollHeight;
}

async function languages() {
  // a language menu for the moderator's narration, when this server offers more than one
  const opts = await (await fetch("/api/options")).json();
  if (opts.languages.length < 2) return;
  const sel = $("#lang");
  for (const lang of opts.languages) {
    const o = el("option", null, lang);
    o.value = lang;
    sel.append(o);
  }
  sel.value = params.get("lang") || "en";
  $("#lang-box").hidden = false;
  sel.addEventListener("change", () => {
    params.set("lang", sel.value);
    history.replaceState(null, "", `?${params}`);
    ws.fatal = true;  // this socket closes for good; a new one opens in the new language
    ws.close();
    ws = null;
    connect();
  });
}

if (params.get("table")) {
  connect();
  languages();
} else {
  host();
}
