// The Mafia table page: a host form, or one seat's view of a game over a WebSocket.
// Everything shown comes from the server: the state message for this seat and the words
// of the chosen language (/api/words). Text is set with textContent only, never parsed
// as HTML. The moves are drawn from the state's action groups whatever their kind, so a
// new kind of turn needs no code here.
"use strict";

const $ = (sel) => document.querySelector(sel);
const params = new URLSearchParams(location.search);
const TEAM = { civilian: "town", sheriff: "town", doctor: "town", putana: "town",
               mafia: "mafia", don: "mafia", maniac: "maniac" };
// close codes of the server (mafia_env.table.seats.Close) -> the reason shown
const CLOSED = { 4400: "bad_lang", 4403: "bad_token", 4404: "no_table", 4410: "expired",
                 4429: "full" };
// action groups that fold where the moves do not fit the screen (claims: many seat buttons)
const FOLDED = new Set(["claim_role", "claim_check", "accuse", "vouch", "ask"]);
const narrow = window.matchMedia("(max-width: 640px)");
const oneColumn = window.matchMedia("(max-width: 1000px)");
const REPLACED = 4409;
let W = null;  // the words of the page's language: {lang, page, roles, bots, languages}

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

function botName(name) {
  return (W.bots && W.bots[name]) || name;
}

function seatsText(seats) {
  return seats.join(", ");
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
  $("#seed").title = w("seed_help");
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
  if (resetCount) $("#overrun-foul").checked = !!v.overrun_foul;  // the variant's choice
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
      const o = el("option", null, w(model ? "a_model" : "a_bot", { name: botName(b) }));
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
  const v = options.variants[$("#variant").value];
  const config = {
    variant: $("#variant").value, num_players: n, humans, bots,
    bot_delay: Number($("#bot-delay").value),
    turn_timeout: Number($("#turn-timeout").value) || null,
    night_turn: Number($("#night-turn").value) || null,
    bot_talk: $("#bot-talk").checked,
  };
  // the variant's own choice is not sent: a table of it keeps what the variant says
  if ($("#overrun-foul").checked !== !!v.overrun_foul) config.overrun_foul = $("#overrun-foul").checked;
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
      // the host's language: the server answers in it, puts it in the seats' links, and
      // the bots talk in it
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
let turnKey = null;  // the turn whose moves were last brought into view
let unsent = null;  // a remark sent and not heard back yet: an error gives it back
const folds = new Map();  // a group's title -> whether the person opened it (true) or folded it

function setOffline(off) {
  // while the connection is down the page says so, and nothing can be sent: the buttons
  // and the talk box wait, the clock stands still (the server's clock goes on)
  $("#offline").hidden = !off;
  document.body.classList.toggle("offline", off);
  for (const b of document.querySelectorAll("#actions button, #calls button")) b.disabled = off;
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
      else {
        toast(msg.message);
        if (unsent && !$("#say").value) $("#say").value = unsent;  // nothing typed is lost
        unsent = null;
      }
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

function send(msg) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return false;
  ws.send(JSON.stringify(msg));
  return true;
}

function remark() {
  // Enter in the talk box: the remark alone, heard by everyone at once; the speech goes on
  const talk = $("#say");
  const say = talk.value.trim();
  if (!say || !state || !state.may_talk) return;
  if (send({ type: "say", say })) {
    unsent = say;
    talk.value = "";
  }
}

function act(id) {
  const talk = $("#say");  // table talk, sent with a speech act
  const say = talk && state && state.may_talk ? talk.value.trim() : "";
  if (send(say ? { type: "act", action: id, say } : { type: "act", action: id })) {
    if (say) { unsent = say; talk.value = ""; }
    $("#actions").replaceChildren(el("p", "muted", "..."));
  }
}

function render(s) {
  state = s;
  if (s.log.length) unsent = null;  // the table heard it
  $("#subtitle").textContent = W.page.variants[s.variant] || s.title;
  $("#status").textContent = s.you ? w("status_seat", { table: s.table, s: s.you })
    : w("status_watch", { table: s.table });
  renderSeats(s);
  renderCenter(s);
  renderMe(s);
  renderBallot(s);
  $("#talk").hidden = !s.may_talk;
  renderActions(s);
  renderReferee(s);
  setOffline(false);
  renderNarration(s);
  showMoves(s);
}

function renderSeats(s) {
  const table = $("#table");
  table.querySelectorAll(".card").forEach((c) => c.remove());
  const n = s.seats.length;
  // around the table: seat 1 at the bottom-left, then clockwise; you at the bottom.
  // On a phone the cards are a grid in seat order (style.css) and these places are unused.
  const offset = s.you ? s.you - 1 : 0;
  // cards shrink where the table is small for its seats: two neighbours around the ellipse
  // must be apart by a card's width across or its height down (a card: 104 x 100 px)
  const box = table.getBoundingClientRect();
  const step = (2 * Math.PI) / n;
  let scale = 1;
  for (let k = 0; k < n; k++) {
    const a = Math.PI / 2 + step * k;
    const dx = 0.43 * box.width * Math.abs(Math.cos(a) - Math.cos(a + step));
    const dy = 0.41 * box.height * Math.abs(Math.sin(a) - Math.sin(a + step));
    scale = Math.min(scale, 0.95 * Math.max(dx / 104, dy / 100));
  }
  table.style.setProperty("--card-scale", String(Math.max(0.45, scale)));
  s.seats.forEach((seat, i) => {
    const k = (i - offset + n) % n;
    const angle = Math.PI / 2 + step * k;
    const card = el("div", "card");
    card.dataset.seat = seat.seat;
    card.style.setProperty("--x", `${50 + 43 * Math.cos(angle)}%`);
    card.style.setProperty("--y", `${50 + 41 * Math.sin(angle)}%`);
    if (!seat.alive) card.classList.add("out");
    if (seat.acting) card.classList.add("acting");
    if (seat.nominated) {
      card.classList.add("nominated");
      // who nominated him (a phone shows the word alone: the vote panel names them)
      card.dataset.badge = seat.nominated_by.length
        ? `${w("nominated")} · ${seatsText(seat.nominated_by)}` : w("nominated");
      card.dataset.short = w("nominated");
    }
    if (seat.seat === s.you) card.classList.add("you");
    card.append(el("div", "num", String(seat.seat)));
    const label = seat.seat === s.you ? w("card_you")
      : seat.kind === "bot" ? w("card_bot", { name: botName(seat.bot) }) : w("card_person");
    const who = el("div", "who", seat.alive ? label : w("card_out", { who: label }));
    who.title = who.textContent;
    card.append(who);
    const role = el("div", `role ${TEAM[seat.role] || ""}`, roleName(seat.role));
    if (seat.role) role.dataset.role = seat.role;
    card.append(role);
    // fouls are public counts (SPORT-F1, ONLINE-F1): every seat sees them
    const f = el("div", "fouls", seat.fouls ? w("fouls_n", { n: seat.fouls }) : "");
    f.dataset.fouls = seat.fouls;
    if (seat.silent_day) {  // the day his fouls take his speech (SPORT-F1): a badge on top
      card.classList.add("silent");
      card.dataset.silent = w("silent_day", { d: seat.silent_day });
      card.dataset.silentShort = w("silent_short");
    }
    card.append(f);
    card.title = seat.acting ? w("acting") : "";
    table.append(card);
  });
}

function renderCenter(s) {
  let phase = W.page.phases[s.phase] || s.phase;
  if (!s.started) {
    const one = s.waiting_for.length === 1;
    phase = w(one ? "waiting_for_one" : "waiting_for", { seats: seatsText(s.waiting_for) });
  } else if (s.phase === "night") phase = s.day ? w("night_n", { d: s.day }) : phase;
  else if (s.day && s.phase !== "over") phase = w("day_phase", { d: s.day, phase });
  $("#phase").textContent = phase;
  $("#felt").classList.toggle("night", s.phase === "night");
  const who = s.your_turn ? w("your_turn") : s.actor ? w("player_n", { s: s.actor }) : "";
  $("#outcome").textContent = s.winner ? W.page.winners[s.winner] || s.winner : who;
  clearInterval(clockTimer);
  const clock = $("#clock");
  clock.textContent = "";
  clock.classList.remove("stopped");
  // a turn's own clock; else, at night, the time to morning (the night's schedule)
  const own = s.time_left !== null && s.time_left !== undefined;
  const left = own ? s.time_left : s.night_left;
  if (left !== null && left !== undefined) {
    const end = Date.now() + left * 1000;
    const tick = () => {
      const n = Math.max(0, Math.ceil((end - Date.now()) / 1000));
      clock.textContent = own ? w("seconds", { n }) : w("night_left", { n });
    };
    tick();
    clockTimer = setInterval(tick, 250);
  }
}

function renderMe(s) {
  const me = $("#me");
  me.replaceChildren();
  if (s.phase === "over" && s.ending) {
    // the end: who won and why, and the game's record to keep
    const winner = W.page.winners[s.winner] || s.winner || "";
    const why = w(`end_${s.ending.key}`, s.ending);  // why it ended (view.ending)
    me.append(el("div", "ending", w("why_over", { winner, why })));
    const a = el("a", "download", w("download"));
    const q = new URLSearchParams({ token: params.get("token") || "", download: "1" });
    a.href = `/api/tables/${encodeURIComponent(s.table)}/record?${q}`;
    a.download = `table-${s.table}.json`;
    me.append(a);
  }
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
  if (mates.length) me.append(el("div", null, w("your_team", { seats: seatsText(mates.map((m) => m.seat)) })));
}

function renderBallot(s) {
  // the vote as it runs: the nominees in nomination order, who nominated each, the hands
  // counted so far (an open count: nominee by nominee), and this seat's own vote
  const box = $("#ballot");
  const v = s.vote;
  box.hidden = !v || s.phase === "night" || s.phase === "over";
  box.replaceChildren();
  if (box.hidden) return;
  const title = !v.started ? w("nominees_title") : v.revote ? w("revote") : w("vote_title");
  box.append(el("h2", null, title));
  const list = el("ol", "rows");
  for (const r of v.rows) {
    const li = el("li", "row");
    li.dataset.seat = r.seat;
    if (r.seat === v.counting) li.classList.add("counting");
    li.append(el("span", "nominee", w("player_n", { s: r.seat })));
    if (r.by.length) li.append(el("span", "by", w("by", { seats: seatsText(r.by) })));
    let hands = "";
    if (r.hands) {
      const n = r.hands.length;
      hands = !n ? w("no_hands")
        : r.silent.length ? w("silent_hands", { n, seats: seatsText(r.hands), silent: r.silent.length })
        : w("hands", { n, seats: seatsText(r.hands) });
    } else if (v.started) hands = r.seat === v.counting ? w("counting") : w("waits");
    li.append(el("span", r.hands ? "hands" : "hands muted", hands));
    list.append(li);
  }
  box.append(list);
  if (v.abstain.length) box.append(el("p", "muted", w("abstain", { seats: seatsText(v.abstain) })));
  if (v.crash) {
    const c = v.crash;
    box.append(el("p", null, w("crash", { seats: seatsText(c.seats), yes: c.yes.length, no: c.no.length })));
  }
  if (v.mine) {
    const m = v.mine;
    const key = { vote: "your_vote", hand: "your_hand", silent: "your_silent",
                  abstain: "your_abstain", yes: "your_yes", no: "your_no" }[m.kind];
    box.append(el("p", "mine", w(key, { t: m.seat })));
  }
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
    // a titled group folds (a claim's ten seat buttons): where the moves do not fit the
    // screen the claims start folded (`showMoves`); what the person opens stays open
    const group = el(g.title ? "details" : "div", "group");
    group.dataset.kind = g.kind;
    if (g.title) {
      const key = g.title;
      group.open = folds.has(key) ? folds.get(key) : !(narrow.matches && FOLDED.has(g.kind));
      const summary = el("summary", "title", g.title);
      // the person's own choice is kept (a click, or Enter on it), not the page's folding
      summary.addEventListener("click", () => folds.set(key, !group.open));
      group.append(summary);
    }
    const buttons = el("div", "buttons");
    for (const a of g.actions) {
      const targeted = /^\d+$/.test(a.label);
      const b = el("button", targeted ? "seat-btn" : g.kind === "pass" ? "primary" : "", a.label);
      b.title = a.text;
      b.dataset.action = a.id;
      b.setAttribute("aria-label", a.text);
      b.addEventListener("click", () => act(a.id));
      buttons.append(b);
    }
    group.append(buttons);
    box.append(group);
  }
}

function renderReferee(s) {
  // the host's view is the moderator's: he gives fouls (SPORT-F1, ONLINE-F1) and removes
  // a player at once (SPORT-F2); every seat sees the counts on the cards
  const panel = $("#referee");
  panel.hidden = !!s.you || !s.started || s.phase === "over";
  if (panel.hidden) return;
  const f = s.fouls;
  const rule = f.mute && f.out ? w("fouls_rule", { mute: f.mute, out: f.out })
    : f.out ? w("fouls_rule_out", { out: f.out }) : w("fouls_rule_none");
  $("#referee-help").textContent = w("referee_help", { rule });
  const box = $("#calls");
  box.replaceChildren();
  const group = (kind, title, folded) => {
    const g = el(folded ? "details" : "div", "group");
    g.dataset.kind = kind;
    if (folded) g.append(el("summary", "title", title));
    else g.append(el("div", "title", title));
    const buttons = el("div", "buttons");
    for (const seat of s.seats) {
      if (!seat.alive) continue;
      const b = el("button", "seat-btn", String(seat.seat));
      b.dataset.seat = seat.seat;
      b.title = `${title}: ${w("player_n", { s: seat.seat })}`;
      b.addEventListener("click", () => send({ type: kind, seat: seat.seat }));
      buttons.append(b);
    }
    g.append(buttons);
    box.append(g);
    return g;
  };
  group("foul", w("give_foul"), false);
  const remove = group("remove", w("remove"), true);
  const key = "referee:remove";
  remove.open = folds.get(key) || false;
  remove.querySelector("summary").addEventListener("click", () => folds.set(key, !remove.open));
}

function renderNarration(s) {
  // only the new lines are added; the flags, not the words, say how a line is shown
  const list = $("#narration");
  const atEnd = list.scrollTop + list.clientHeight >= list.scrollHeight - 30;
  if (s.log_from === 0) list.replaceChildren();
  for (const line of s.log) {
    const cls = [line.mark, line.mine ? "mine" : "", line.private ? "private" : ""];
    list.append(el("li", cls.filter(Boolean).join(" "), line.text));  // numbered by CSS
    log.push(line);
  }
  list.style.setProperty("--digits", String(String(log.length).length));
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function showMoves(s) {
  // when a turn comes, its moves are brought into view, above the moderator's panel that
  // a narrow screen keeps at its bottom; where they do not fit, the claims fold first
  const key = s.your_turn ? `${s.day}|${s.phase}|${s.actions.map((g) => g.kind).join(",")}` : null;
  if (key === turnKey) return;
  turnKey = key;
  if (!key) return;
  const moves = $("#moves");
  const story = $("#story");
  // the lowest line the moves may reach: the top of the log, which one column keeps below
  // them (stuck to the screen's bottom, or in its place at the page's end)
  const bottom = () => (oneColumn.matches
    ? Math.min(innerHeight, story.getBoundingClientRect().top) : innerHeight);
  const fits = () => moves.getBoundingClientRect().height <= bottom() - 8;
  const claims = [...moves.querySelectorAll("details.group")].filter((d) => FOLDED.has(d.dataset.kind));
  for (const d of claims.reverse()) {  // the last first: the first claims stay in view longest
    if (fits()) break;
    if (!folds.has(d.querySelector("summary").textContent)) d.open = false;
  }
  for (let i = 0; i < 3; i++) {  // the log may move as the page scrolls: measure again
    const r = moves.getBoundingClientRect();
    const low = bottom();
    let dy = 0;
    if (r.height > low - 8 || r.top < 0) dy = r.top - 4;
    else if (r.bottom > low - 4) dy = r.bottom - (low - 4);
    if (Math.abs(dy) < 1) break;
    window.scrollBy(0, dy);
  }
}

$("#say").addEventListener("keydown", (ev) => {
  if (ev.key === "Enter" && !ev.isComposing) {
    ev.preventDefault();
    remark();
  }
});
loadWords().then(() => (params.get("table") ? connect() : host()));
