// blockref's pages: live updates by Server-Sent Events, moves sent to the web games' API.
"use strict";
const page = document.body.dataset.page;
const $ = (selector) => document.querySelector(selector);

function text(tag, content) {
  const element = document.createElement(tag);
  element.textContent = content;
  return element;
}

// The seats as the world names them: player 1 (red): ann, player 2 (blue): open.
function who(seats, colours) {
  if (colours && Object.keys(colours).length) {
    return Object.entries(colours).map(([seat, colour]) => `player ${seat} (${colour}): ${seats[seat] || "open"}`)
      .join(", ");
  }
  const names = Object.entries(seats).map(([seat, name]) => `player ${seat}: ${name}`);
  return names.length ? names.join(", ") : "no one seated";
}

function moveText(move, colours) {
  const words = move.consequences.length ? ` (${move.consequences.join("; ")})` : "";
  const colour = (colours || {})[String(move.player)];
  const player = move.player ? `player ${move.player}` + (colour ? ` (${colour})` : "") : null;
  const by = [player, move.by].filter(Boolean).join(", ");
  return move.entry + words + (by ? ` — ${by}` : "");
}

function showMoves(moves, colours) {
  const list = $("#moves");
  while (list.children.length > moves.length) list.lastElementChild.remove();
  for (const move of moves.slice(list.children.length)) {
    const item = text("li", moveText(move, colours));
    item.value = move.n;
    list.append(item);
  }
  list.scrollTop = list.scrollHeight;
}

function mmss(seconds) {
  const whole = Math.ceil(Math.max(0, seconds));
  return `${Math.floor(whole / 60)}:${String(whole % 60).padStart(2, "0")}`;
}

// Each player's time for the move + reserve, the running one counted down from when the data came.
function clockText(clock, seats, since) {
  if (!clock) return "";
  const gone = (Date.now() - since) / 1000;
  return clock.players.map((p) => {
    let move = p.move_left;
    let reserve = p.reserve_left;
    const running = p.player === clock.running;
    if (running) {
      const fromMove = Math.min(move, gone);
      move -= fromMove;
      reserve = Math.max(0, reserve - (gone - fromMove));
    }
    return `${seats[p.player] || `player ${p.player}`} ${mmss(move)} + ${mmss(reserve)}${running ? " ⏱" : ""}`;
  }).join(" · ");
}

// Keeps every element with data-clock counting down (its data is set where the snapshot arrives).
function tickClocks() {
  const loaded = Date.now();
  const show = () => document.querySelectorAll("[data-clock]").forEach((element) => {
    const clock = JSON.parse(element.dataset.clock || "null");
    element.textContent = clockText(clock, JSON.parse(element.dataset.seats || "{}"),
                                    Number(element.dataset.since || loaded))
      || turnText(element.dataset.turnEnds ? Number(element.dataset.turnEnds) : null);
  });
  setInterval(show, 1000);
}

// A turn clock's (a game whose orders wait for the turn's end): the turn ends in 12 s.
function turnText(ends) {
  return ends ? `the turn ends in ${Math.max(0, Math.ceil(ends - Date.now() / 1000))} s` : "";
}

function setClock(element, clock, seats, turnEnds) {
  element.dataset.clock = JSON.stringify(clock || null);
  element.dataset.seats = JSON.stringify(seats);
  element.dataset.since = String(Date.now());
  if (turnEnds) element.dataset.turnEnds = String(turnEnds);
  else delete element.dataset.turnEnds;
  element.textContent = clockText(clock, seats, Date.now()) || turnText(turnEnds);
}

function showList(selector, items) {
  $(selector).replaceChildren(...items.map((item) => text("li", item)));
}

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  const answer = await response.json().catch(() => ({error: `the server answered ${response.status}`}));
  return {ok: response.ok, status: response.status, answer};
}

function lobby() {
  const events = new EventSource("/events/lobby");
  events.onmessage = (message) => {
    const rows = JSON.parse(message.data);
    const body = $("#lobby tbody");
    body.replaceChildren(...rows.map((row) => {
      const line = document.createElement("tr");
      line.dataset.board = row.board;
      const link = text("a", row.board);
      link.href = `/board/${encodeURIComponent(row.board)}`;
      const first = document.createElement("td");
      first.append(link);
      const clock = text("td", "");
      clock.className = "clock";
      setClock(clock, row.clock, row.seats, row.terminal ? null : row.turn_ends);
      line.append(first, text("td", row.title), text("td", who(row.seats, row.colours)), text("td", row.status),
                  clock,
                  text("td", row.last || "-"), text("td", String(row.spectators)));
      return line;
    }));
    if (rows.length && $("#empty")) $("#empty").remove();
  };
}

function board() {
  const name = document.body.dataset.board;
  const key = `seat:${name}`;
  const fragment = new URLSearchParams(location.hash.slice(1));
  if (fragment.get("seat")) {
    sessionStorage.setItem(key, fragment.get("seat"));
    history.replaceState(null, "", location.pathname);  // the token is not left in the address bar
  }
  const token = sessionStorage.getItem(key);
  let seen = Number(document.body.dataset.seen);
  let snapshot = null;
  let mySeat = null;  // the seat the token holds, once the server said it
  if (token) {
    api(`/api/board/${encodeURIComponent(name)}/seat`, {token}).then((result) => {
      if (result.ok) {
        mySeat = result.answer.seat;
        $("#seat").textContent = `You hold seat ${mySeat} of this board.`;
      }
    });
  }
  const form = $("#move");
  const reason = $("#reason");

  async function send(action) {
    reason.textContent = "";
    const result = await api(`/api/board/${encodeURIComponent(name)}/act`, {token, action, seen});
    if (!result.ok) reason.textContent = result.answer.error;
    else seen = Math.max(seen, result.answer.seen);
  }

  if (token) {
    form.hidden = false;
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const action = form.elements.action.value.trim();
      if (action) send(action).then(() => { form.elements.action.value = ""; });
    });
    $("#concede").addEventListener("click", () => send("concede"));
    if ($("#hint")) $("#hint").addEventListener("click", async () => {
      $("#hint-text").textContent = "thinking ...";
      const result = await api(`/api/board/${encodeURIComponent(name)}/hint`, {token});
      $("#hint-text").textContent = result.ok ? `hint: ${result.answer.hint}` : result.answer.error;
    });
  }
  const targets = JSON.parse(document.body.dataset.targets || "[]");  // [key, x, y] in the picture's units
  const reach = Number(document.body.dataset.reach || 0);
  let pick = [];
  let handled = 0;  // clicks handled so far (a test waits for its clicks to be)
  let legal = {seen: -1, moves: []};

  async function legalMoves() {
    if (legal.seen !== seen) {
      const result = await api(`/api/board/${encodeURIComponent(name)}/legal`);
      if (result.ok) legal = {seen: result.answer.seen, moves: result.answer.legal};
    }
    // where everyone gives orders at once, a move names its seat: only this seat's are offered
    return legal.moves.filter((m) => m.seat === undefined || m.seat === mySeat);
  }

  function offer(moves, hint) {
    const buttons = moves.map((move) => {
      const button = text("button", move.action);
      button.type = "button";
      button.className = "choice";
      button.addEventListener("click", () => { pick = []; offer([], `sent ${move.action}`); send(move.action); });
      return button;
    });
    $("#choices").replaceChildren(...buttons);
    $("#picked").textContent = hint;
  }

  async function clicked(key) {
    const moves = await legalMoves();
    const confirm = pick.length > 0 && pick[pick.length - 1] === key;  // the same spot twice: that move
    if (!confirm) pick.push(key);
    const same = (m) => m.picks.length === pick.length && m.picks.every((k, i) => k === pick[i]);
    const sameSet = (m) => m.picks.length === pick.length && pick.every((k) => m.picks.includes(k));
    let exact = moves.filter(same);
    const ordered = moves.some((m) => m.seat !== undefined);  // an order goes from its first spot
    if (!exact.length && !ordered) exact = moves.filter(sameSet);
    const grows = (m) => m.picks.length > pick.length && (ordered ? pick.every((k, i) => m.picks[i] === k)
                                                                  : pick.every((k) => m.picks.includes(k)));
    const longer = confirm ? [] : moves.filter(grows);
    const shown = pick.map((k) => k.replace(/^\w+:/, "")).join(", ");
    if (!exact.length && !longer.length) {
      pick = [];
      offer([], `no legal move is made by ${shown}: pick again`);
    } else if (exact.length === 1 && !longer.length) {
      pick = [];
      offer([], `sent ${exact[0].action}`);
      send(exact[0].action);
    } else {
      offer(exact, `picked ${shown}: ` + (longer.length ? "pick the next spot" : "choose the move")
            + (exact.length && longer.length ? ", or choose" : ""));
    }
  }

  let clicks = Promise.resolve();  // each click is handled once those before it are, in the order made
  if (token && targets.length) {
    $("#picked").textContent = "Click the board to move (the move box takes the notation too).";
    $("#svg").addEventListener("click", (event) => {
      const matrix = $("#svg svg").getScreenCTM();
      if (!matrix) return;
      const spot = new DOMPoint(event.clientX, event.clientY).matrixTransform(matrix.inverse());
      let best = null;
      let distance = reach;
      for (const [key, x, y] of targets) {
        const d = Math.hypot(spot.x - x, spot.y - y);
        if (d <= distance) { best = key; distance = d; }
      }
      const done = () => { document.body.dataset.handled = String(++handled); };
      clicks = clicks.then(() => {
        if (best === null) { pick = []; offer([], "not on a spot of the board: pick again"); return; }
        return clicked(best).catch(() => { pick = []; offer([], "the server did not answer: pick again"); });
      }).then(done);
    });
  }

  function show(data) {
    snapshot = data;
    seen = data.seen;
    document.body.dataset.seen = String(seen);
    $("#svg").innerHTML = data.svg;
    const result = data.result && !data.status.includes(data.result) ? ` (${data.result})` : "";
    $("#status").textContent = data.status + result;
    $("#players").textContent = who(data.seats, data.colours);
    setClock($("#clock"), data.clock, data.seats);
    showMoves(data.moves, data.colours);
    const colours = data.colours || {};
    showList("#pending", (data.pending || []).map((p) => `${p.entry} — player ${p.seat}`
      + (colours[String(p.seat)] ? ` (${colours[String(p.seat)]})` : "") + (p.by ? `, ${p.by}` : "")));
    $("#queue").hidden = !(data.pending || []).length;
    showList("#chat", data.chat || []);
    turnEnds = data.terminal ? null : data.turn_ends;
    $("#turn").textContent = turnText(turnEnds);  // at once, not only at the next tick
    if (token) {
      form.hidden = data.terminal;
      if (mySeat === null) $("#seat").textContent = "You hold a seat of this board.";
    }
  }
  let turnEnds = null;  // when the turn clock of a web game ends the turn (epoch seconds)
  setInterval(() => { $("#turn").textContent = turnText(turnEnds); }, 250);
  const events = new EventSource(`/events/board/${encodeURIComponent(name)}`);
  events.onmessage = (message) => show(JSON.parse(message.data));
  window.blockrefSnapshot = () => snapshot;
}

function viewer() {
  const id = document.body.dataset.gameId;
  const total = Number(document.body.dataset.total);
  let at = Number(document.body.dataset.at);
  let wanted = at;  // the position asked for last: steps count from it, so two quick ones go two places
  let asked = 0;  // how many were asked for: an answer that comes after a later one was asked is dropped
  async function go(n) {
    wanted = n = Math.max(0, Math.min(total, n));
    const step = ++asked;
    const result = await api(`/api/game/${id}/position/${n}`).catch(() => ({ok: false}));  // no answer
    if (step !== asked) return;
    if (!result.ok) { wanted = at; return; }
    at = n;
    $("#svg").innerHTML = result.answer.svg;
    $("#status").textContent = result.answer.status;
    $("#at").textContent = String(at);
    const link = `/game/${id}?at=${at}`;
    $("#here").href = link;
    history.replaceState(null, "", link);
    document.body.dataset.at = String(at);
    document.querySelectorAll("#moves li").forEach((item, index) => item.classList.toggle("current", index + 1 === at));
  }
  $("#first").addEventListener("click", () => go(0));
  $("#back").addEventListener("click", () => go(wanted - 1));
  $("#forward").addEventListener("click", () => go(wanted + 1));
  $("#last").addEventListener("click", () => go(total));
  document.addEventListener("keydown", (event) => {
    const moves = {ArrowLeft: wanted - 1, ArrowRight: wanted + 1, Home: 0, End: total};
    if (event.key in moves) { event.preventDefault(); go(moves[event.key]); }
  });
}

// One input of the new-game form for a game's option as the server declares it (/api/games/GAME/options).
function optionInput(option) {
  let input;
  if (option.kind === "choice") {
    input = document.createElement("select");
    input.append(...option.choices.map((choice) => Object.assign(text("option", choice), {value: choice})));
  } else {
    input = document.createElement("input");
    input.type = {flag: "checkbox", integer: "number", number: "number"}[option.kind] || "text";
    if (option.kind === "integer" || option.kind === "number") input.step = option.kind === "integer" ? "1" : "any";
    if (option.min !== undefined) input.min = String(option.min);
    if (option.max !== undefined) input.max = String(option.max);
  }
  if (option.kind === "flag") input.checked = option.default;
  else input.value = String(option.default);
  input.name = `option-${option.name}`;
  const label = document.createElement("label");
  label.append(`${option.name.replaceAll("_", " ")} `, input, text("small", ` ${option.help}`));
  return label;
}

// An option's input as sent: its value where it differs from the default, else undefined (not sent).
function changedValue(option, input) {
  if (option.kind === "flag") return input.checked === option.default ? undefined : input.checked;
  const numeric = option.kind === "integer" || option.kind === "number";
  const same = numeric ? input.value !== "" && Number(input.value) === option.default
                       : input.value === option.default;
  return same ? undefined : input.value;
}

function play() {
  const form = $("#new");
  let shown = {game: null, options: []};  // the options the form shows, as the server declares them
  async function showOptions() {
    const game = form.elements.game.value;
    const result = await api(`/api/games/${encodeURIComponent(game)}/options`);
    if (form.elements.game.value !== game) return;  // another game was chosen meanwhile
    shown = {game, options: result.ok ? result.answer.options : []};
    $("#options").replaceChildren(text("legend", "options"), ...shown.options.map(optionInput));
    form.dataset.optionsOf = game;
  }
  form.elements.game.addEventListener("change", showOptions);
  showOptions();
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    $("#reason").textContent = "";
    const options = {};
    for (const option of shown.game === form.elements.game.value ? shown.options : []) {
      const value = changedValue(option, form.elements[`option-${option.name}`]);
      if (value !== undefined) options[option.name] = value;
    }
    const opponent = form.elements.opponent.value;
    const result = await api("/api/games", {game: form.elements.game.value, opponent, options,
                                            names: [form.elements.name.value]});
    if (!result.ok) { $("#reason").textContent = result.answer.error; return; }
    const links = result.answer.links;
    if (opponent !== "person") { location.href = links["1"]; return; }
    const list = $("#links ul");
    list.replaceChildren(...Object.entries(links).map(([seat, link]) => {
      const item = document.createElement("li");
      const anchor = text("a", `seat ${seat}`);
      anchor.href = link;
      anchor.className = "seat-link";
      anchor.dataset.seat = seat;
      item.append(anchor, text("span", ` ${new URL(link, location.href)}`));
      return item;
    }));
    $("#links").hidden = false;
  });
}

({lobby, board, viewer, play}[page] || (() => {}))();
if (page === "lobby" || page === "board") tickClocks();
