/* The hand viewer (viewer.html). Everything drawn comes from the JSON of #hand-data
   (napkit.dispute.viewer.hand_view), written into the page with text nodes only: the cards each
   seat holds at each step and each trick's winner are worked out by the engine, not here.
   Step k shows the position after k steps (0: just after the deal); #step=N opens at step N. */
(function () {
  "use strict";
  var data = JSON.parse(document.getElementById("hand-data").textContent);
  var SUITS = { S: "\u2660", H: "\u2665", D: "\u2666", C: "\u2663" };
  var last = data.steps.length;
  var current = -1;
  var main = document.getElementById("viewer");
  var felt = document.getElementById("felt");
  var where = document.getElementById("where");
  var past = document.getElementById("history");
  var verdicts = document.getElementById("verdicts");
  var firstPlay = 0;
  data.steps.some(function (s, i) { if (s.card) { firstPlay = i + 1; return true; } return false; });

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function isRed(name) { var s = name.slice(-1); return s === "H" || s === "D"; }

  function cardText(name) { return name.slice(0, -1) + (SUITS[name.slice(-1)] || name.slice(-1)); }

  function card(name, extra) {
    var node = el("span", "card" + (isRed(name) ? " red" : "") + (extra ? " " + extra : ""));
    node.appendChild(el("span", "rank", name.slice(0, -1)));
    node.appendChild(el("span", "suit", SUITS[name.slice(-1)] || name.slice(-1)));
    node.title = name;
    return node;
  }

  /* Seat i of n round the table, clockwise from the bottom: percentages of the felt. */
  function place(seat, radius) {
    var angle = 2 * Math.PI * seat / data.players;
    return { x: 50 - radius.x * Math.sin(angle), y: 50 + radius.y * Math.cos(angle) };
  }

  function wordsOf(step) {
    return step.card ? cardText(step.card) : step.words;
  }

  /* The trick on the table after k steps: the trick with a card played by then, still
     being played or just finished; null in the auction. */
  function trickAt(k) {
    var found = null;
    data.tricks.forEach(function (t, i) { if (t.steps[0] <= k) { found = { trick: t, index: i }; } });
    return found;
  }

  function wonBy(k) {
    var won = {};
    data.tricks.forEach(function (t) {
      if (t.winner !== null && t.steps[t.steps.length - 1] <= k) {
        won[t.winner] = (won[t.winner] || 0) + 1;
      }
    });
    return won;
  }

  function drawFelt(k) {
    felt.textContent = "";
    felt.className = "felt" + (data.players > 4 ? " many" : "");
    var hands = data.positions[k];
    var won = wonBy(k);
    var next = k < last ? data.steps[k].seat : null;
    data.seats.forEach(function (seat) {
      var at = place(seat, { x: 38, y: 38 });
      var box = el("div", "seat" + (seat === next ? " acting" : ""));
      box.setAttribute("data-seat", String(seat));
      box.setAttribute("data-cards", String(hands[seat].length));
      box.style.left = at.x + "%";
      box.style.top = at.y + "%";
      var name = el("div", "name", "S" + seat);
      if (seat === data.dealer) { name.appendChild(el("span", "badge", "dealer")); }
      if (seat === data.declarer && firstPlay && k >= firstPlay - 1) {
        name.appendChild(el("span", "badge declarer", "declarer"));
      }
      if (won[seat]) { name.appendChild(el("span", "badge", won[seat] + (won[seat] === 1 ? " trick" : " tricks"))); }
      box.appendChild(name);
      var hand = el("div", "hand");
      if (!hands[seat].length) { hand.appendChild(el("span", "empty", "no cards")); }
      hands[seat].forEach(function (c) { hand.appendChild(card(c)); });
      box.appendChild(hand);
      felt.appendChild(box);
    });
    if (data.widows[k]) {
      var widow = el("div", "widow");
      widow.appendChild(el("div", "name", "widow"));
      widow.appendChild(card(data.widows[k]));
      felt.appendChild(widow);
    }
    var middle = el("div", "trick");
    var at = trickAt(k);
    if (at) {
      var t = at.trick;
      var done = t.steps[t.steps.length - 1] <= k;
      var shown = 0;
      t.steps.forEach(function (n, i) {
        if (n > k) { return; }
        shown += 1;
        var seat = t.cards[i][0];
        var spot = place(seat === null ? 0 : seat, { x: 64, y: 54 });
        var c = card(t.cards[i][1], done && seat === t.winner ? "won" : "");
        c.style.left = (spot.x - 50) + "px";
        c.style.top = (spot.y - 50) + "px";
        middle.appendChild(c);
      });
      middle.setAttribute("data-trick-cards", String(shown));
      var note = "trick " + (at.index + 1);
      if (done) { note += t.winner === null ? ": its winner is not ruled" : ": S" + t.winner + " wins"; }
      var label = el("span", "note", note);
      label.style.top = "104px";
      middle.appendChild(label);
    } else if (k > 0) {
      var step = data.steps[k - 1];
      middle.appendChild(el("span", "call", step.who + ": " + step.words));
      middle.setAttribute("data-trick-cards", "0");
    } else {
      middle.appendChild(el("span", "note", "the deal"));
      middle.setAttribute("data-trick-cards", "0");
    }
    felt.appendChild(middle);
  }

  function stepLink(n, k, text, red) {
    var node = el("span", "step" + (n === k ? " current" : n > k ? " future" : ""));
    var inner = el("span", red ? "red" : "", text);
    node.appendChild(inner);
    node.setAttribute("data-step", String(n));
    node.addEventListener("click", function () { go(n); });
    return node;
  }

  function drawHistory(k) {
    past.textContent = "";
    var before = data.steps.slice(0, firstPlay ? firstPlay - 1 : last);
    if (before.length) {
      past.appendChild(el("h3", "", "Before the play"));
      var line = el("div", "line");
      before.forEach(function (s, i) { line.appendChild(stepLink(i + 1, k, s.who + " " + s.words)); });
      past.appendChild(line);
    }
    if (data.tricks.length) {
      past.appendChild(el("h3", "", "The tricks"));
      var table = el("table");
      data.tricks.forEach(function (t, i) {
        var row = el("tr");
        row.appendChild(el("td", "", String(i + 1) + "."));
        t.steps.forEach(function (n, j) {
          var cell = el("td");
          cell.appendChild(stepLink(n, k, "S" + t.cards[j][0] + " " + cardText(t.cards[j][1]), isRed(t.cards[j][1])));
          row.appendChild(cell);
        });
        var ended = t.steps[t.steps.length - 1] <= k;
        row.appendChild(el("td", "", ended ? (t.winner === null ? "" : "\u2192 S" + t.winner) : ""));
        table.appendChild(row);
      });
      past.appendChild(table);
    }
  }

  function ruleLink(rule) {
    var a = el("a", "", rule);
    a.href = "#rule-" + rule;
    return a;
  }

  function say(box, parts, cls) {
    var p = el("div", cls || "say");
    parts.forEach(function (part) { p.appendChild(typeof part === "string" ? document.createTextNode(part) : part); });
    box.appendChild(p);
  }

  function drawVerdicts(k) {
    verdicts.textContent = "";
    data.verdicts.forEach(function (v) {
      var refused = v.refused.filter(function (p) { return p.step <= k; });
      var state = v.setup ? "cannot" : refused.length ? "refused" : "legal";
      var box = el("div", "verdict " + state);
      box.setAttribute("data-ruleset", v.label);
      box.setAttribute("data-verdict", state);
      var head = el("div", "head", v.label + " ");
      head.appendChild(el("small", "", v.title));
      box.appendChild(head);
      if (v.setup) {
        say(box, ["cannot deal this hand: ", ruleLink(v.setup.rule), " (" + v.setup.message + ")"]);
        verdicts.appendChild(box);
        return;
      }
      v.readings.forEach(function (r) { say(box, [r], "reading"); });
      v.assumed.forEach(function (a) {
        if (a.step === null || a.step <= k) { say(box, [(a.step === null ? "assumes: " : "assumes at step " + a.step + ": ") + a.words], "assumed"); }
      });
      if (!refused.length) {
        say(box, [k < last ? "legal so far" : "legal to the end"]);
      }
      refused.forEach(function (p) {
        say(box, ["refuses step " + p.step + " (" + p.seat + " " + p.action + "): ", ruleLink(p.rule), " (" + p.message + ")"]);
      });
      if (v.stopped && (!refused.length || k === last)) {
        say(box, ["the replay stops: " + v.stopped]);
      }
      if (firstPlay && k >= firstPlay && v.trumps && v.trumps !== "-") {
        say(box, ["trumps: " + v.trumps]);
      }
      if (k === last) {
        if (v.settled) {
          var settles = ["settles: " + [v.contract, v.result].filter(function (c) { return c !== "-"; }).join(", ")];
          var rules = [];
          v.payments.forEach(function (p) { if (rules.indexOf(p.rule) < 0) { rules.push(p.rule); } });
          if (rules.length) { settles.push(" ("); }
          rules.forEach(function (r, i) { if (i) { settles.push(", "); } settles.push(ruleLink(r)); });
          if (rules.length) { settles.push(")"); }
          say(box, settles);
          var net = data.seats.map(function (s, i) { return "S" + s + " " + v.net[i]; }).join("  ");
          say(box, ["net: " + net], "net");
        } else {
          say(box, ["the hand stops before it is settled"]);
        }
      }
      verdicts.appendChild(box);
    });
  }

  function go(k) {
    k = Math.max(0, Math.min(last, k));
    if (k === current) { return; }
    current = k;
    main.setAttribute("data-step", String(k));
    where.textContent = k === 0 ? "the deal (step 0 of " + last + ")"
      : "step " + k + " of " + last + ": " + data.steps[k - 1].who + " " + wordsOf(data.steps[k - 1]);
    drawFelt(k);
    drawHistory(k);
    drawVerdicts(k);
    try { window.history.replaceState(null, "", "#step=" + k); } catch (e) { /* a page opened from disk may refuse */ }
  }

  function fromHash() {
    var found = /step=(\d+)/.exec(location.hash);
    return found ? parseInt(found[1], 10) : 0;
  }

  document.getElementById("to-first").addEventListener("click", function () { go(0); });
  document.getElementById("to-prev").addEventListener("click", function () { go(current - 1); });
  document.getElementById("to-next").addEventListener("click", function () { go(current + 1); });
  document.getElementById("to-last").addEventListener("click", function () { go(last); });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var moves = { ArrowRight: 1, ArrowLeft: -1 };
    if (event.key in moves) { go(current + moves[event.key]); }
    else if (event.key === "Home") { go(0); }
    else if (event.key === "End") { go(last); }
    else { return; }
    event.preventDefault();
  });
  window.addEventListener("hashchange", function () { go(fromHash()); });
  go(fromHash());
}());
