/* The game site's dice check: DESIGN.md "Audited dice", recomputed in the reader's browser.

   SHA-256 and HMAC are our own few lines, not the browser's crypto.subtle: that exists only in secure contexts,
   and a host's web space is often plain http, so the check would be missing exactly where players read it. The
   check runs synchronously, so a page's verdict (body[data-verify]) is set before any script reads it. */
"use strict";
(function () {
  const K = new Uint32Array([
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2]);

  function sha256(bytes) {
    const h = new Uint32Array([0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]);
    const padded = new Uint8Array(((bytes.length + 9 + 63) >> 6) << 6);
    padded.set(bytes);
    padded[bytes.length] = 0x80;
    const view = new DataView(padded.buffer);
    view.setUint32(padded.length - 8, Math.floor(bytes.length / 0x20000000));
    view.setUint32(padded.length - 4, (bytes.length << 3) >>> 0);
    const w = new Uint32Array(64);
    for (let off = 0; off < padded.length; off += 64) {
      for (let t = 0; t < 16; t++) w[t] = view.getUint32(off + 4 * t);
      for (let t = 16; t < 64; t++) {
        const a = w[t - 15], b = w[t - 2];
        const s0 = ((a >>> 7) | (a << 25)) ^ ((a >>> 18) | (a << 14)) ^ (a >>> 3);
        const s1 = ((b >>> 17) | (b << 15)) ^ ((b >>> 19) | (b << 13)) ^ (b >>> 10);
        w[t] = (w[t - 16] + s0 + w[t - 7] + s1) >>> 0;
      }
      let [a, b, c, d, e, f, g, k] = h;
      for (let t = 0; t < 64; t++) {
        const S1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7));
        const t1 = (k + S1 + ((e & f) ^ (~e & g)) + K[t] + w[t]) >>> 0;
        const S0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10));
        const t2 = (S0 + ((a & b) ^ (a & c) ^ (b & c))) >>> 0;
        k = g; g = f; f = e; e = (d + t1) >>> 0; d = c; c = b; b = a; a = (t1 + t2) >>> 0;
      }
      h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += k;
    }
    const out = new Uint8Array(32);
    for (let i = 0; i < 8; i++) new DataView(out.buffer).setUint32(4 * i, h[i]);
    return out;
  }

  const utf8 = (text) => new TextEncoder().encode(text);
  const concat = (...parts) => {
    const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
    let at = 0;
    for (const p of parts) { out.set(p, at); at += p.length; }
    return out;
  };
  const hex = (bytes) => Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  function unhex(text) {
    if (!/^[0-9a-f]{64}$/.test(text)) return null;
    return Uint8Array.from(text.match(/../g), (b) => parseInt(b, 16));
  }

  function hmac(key, message) {        // keys are 32 bytes: never longer than SHA-256's block
    const block = new Uint8Array(64);
    block.set(key);
    const inner = block.map((b) => b ^ 0x36), outer = block.map((b) => b ^ 0x5c);
    return sha256(concat(outer, sha256(concat(inner, message))));
  }

  /* One block's check: the seed leads to the anchor, and each group's dice are the first accepted bytes of
     HMAC(key, "game|turn|label|block"). Returns {problem} or {groups: [expected values, …]}. */
  function check(block) {
    const seed = unhex(block.seed || ""), anchor = unhex(block.anchor || "");
    if (!seed) return {problem: "the seed is not revealed on this page, or is not 64 hex digits"};
    if (!anchor) return {problem: "the anchor is not 64 hex digits"};
    if (!(block.turn >= 1 && block.turn <= 4096)) return {problem: "the turn is not a power-turn of a dice chain"};
    let walked = seed;
    for (let i = 0; i < block.turn; i++) walked = sha256(walked);
    if (hex(walked) !== hex(anchor)) {
      return {problem: `the seed does not lead to the anchor: hashing it ${block.turn} time(s) does not give ${hex(anchor)}`};
    }
    if (block.salts.some((s) => !s)) return {problem: "an empty salt: no real game has one"};
    const key = block.salts.length ? sha256(concat(seed, ...block.salts.map(utf8))) : seed;
    const groups = block.groups.map((g) => {
      const out = [], limit = 256 - (256 % g.sides);
      for (let n = 0; out.length < g.count; n++) {
        for (const b of hmac(key, utf8(`${block.game}|${block.turn}|${g.label}|${n}`))) {
          if (b < limit && out.length < g.count) out.push((b % g.sides) + 1);
        }
      }
      return out;
    });
    return {groups};
  }

  /* A turn page: the dice table's data attributes and each die's text, as the page shows them. */
  function checkPage(section) {
    const rows = Array.from(section.querySelectorAll("tr[data-label]"));
    const dice = rows.map((row) => Array.from(row.querySelectorAll(".die")));
    const block = {game: section.dataset.game, turn: Number(section.dataset.turn), anchor: section.dataset.anchor,
                   seed: section.dataset.seed, salts: JSON.parse(section.dataset.salts || "[]"),
                   groups: rows.map((row, k) => ({label: row.dataset.label, sides: Number(row.dataset.sides),
                                                 count: dice[k].length}))};
    const verdict = document.getElementById("verdict");
    if (!block.seed) {
      document.body.dataset.verify = "unrevealed";
      verdict.textContent = "This turn is not over: its seed is revealed, and its dice checked, when it is.";
      return;
    }
    const result = check(block);
    if (result.problem) {
      document.body.dataset.verify = "fail";
      verdict.textContent = `The dice do not check out: ${result.problem}.`;
      return;
    }
    const wrong = [];
    rows.forEach((row, k) => dice[k].forEach((die, i) => {
      const want = result.groups[k][i];
      die.dataset.expected = String(want);
      const good = die.textContent.trim() === String(want);
      die.classList.add(good ? "good" : "bad");
      die.title = good ? "checks out" : `the seed gives ${want}`;
      if (!good) wrong.push(`die ${i + 1} of ${row.dataset.label} shows ${die.textContent.trim()}, the seed gives ${want}`);
    }));
    const count = dice.reduce((n, d) => n + d.length, 0);
    document.body.dataset.verify = wrong.length ? "fail" : "ok";
    verdict.textContent = wrong.length ? `Tampered: ${wrong.join("; ")}.`
      : count ? `All ${count} dice of ${rows.length} group(s) check out: the seed leads to the anchor and gives every die.`
      : "No dice were rolled this turn; its seed leads to the anchor.";
  }

  /* The "paste a report" page: the dice blocks of any report text, read as `verify` reads them. */
  const LEAD = /^(?:(?:>|\[quote(?:=[^\[\]]*)?\]|\[\/quote\]|\[code(?:=[^\[\]]*)?\]|\[\/code\]|```+|~~~+)\s*)+/i;
  const TRAIL = /(?:\s*(?:\[\/quote\]|\[\/code\]|```+|~~~+))+\s*$/i;
  function readBlocks(text) {
    if (/<(?:pre|code|p|br|div|blockquote|span|li)\b[^<>]*>/i.test(text)) {
      const doc = new DOMParser().parseFromString(
        text.replace(/<br\s*\/?>|<\/?(?:p|pre|div|blockquote|li|ul|ol|h[1-6]|tr|table)\b[^<>]*>/gi, "\n"), "text/html");
      text = doc.body.textContent;
    }
    text = text.replace(/[\u200b\u200c\u200d\u2060\ufeff\u00ad]/g, "").normalize("NFC").replace(/\r\n?/g, "\n");
    const blocks = [];
    for (let line of text.replace(/[^\S\n]/g, " ").split("\n")) {
      line = line.trim().replace(LEAD, "").replace(TRAIL, "");
      if (line.toLowerCase() === "adjudicator dice") {
        blocks.push({game: "", turn: 0, anchor: "", seed: "", salts: [], groups: [], values: [], binds: null, orders: "",
                     holds: ""});
        continue;
      }
      const block = blocks[blocks.length - 1];
      if (!block || !line) continue;
      const head = /^(game|turn|anchor|seed|salts|binds|orders|holds)\s*:\s*(.*)$/i.exec(line);
      if (head && !block.groups.length) {
        const [name, value] = [head[1].toLowerCase(), head[2].trim()];
        if (name === "turn") block.turn = /^[0-9]{1,9}$/.test(value) ? Number(value) : 0;
        else if (name === "salts") block.salts = value.split("|").map((s) => s.trim());
        else if (name === "seed") block.seed = /revealed/i.test(value) ? null : value.toLowerCase();
        else if (name === "binds") block.binds = value.split("|").map((s) => s.trim().toLowerCase());
        else if (name === "orders") block.orders = value.toLowerCase();
        else if (name === "holds") block.holds = value;
        else if (name === "anchor") block.anchor = value.toLowerCase();
        else block.game = value;
        continue;
      }
      const fields = line.split("|").map((f) => f.trim());
      const sides = /^d([0-9]{1,9})$/i.exec(fields[1] || "");
      if (fields.length >= 4 && sides && /^[0-9]{1,9}(?: [0-9]{1,9})*$/.test(fields[2])) {
        const values = fields[2].split(" ").map(Number);
        block.groups.push({label: fields[0], sides: Number(sides[1]), count: values.length});
        block.values.push(values);
      }
    }
    return blocks;
  }

  function checkPaste(text, out) {
    out.textContent = "";
    const say = (line, bad) => {
      const p = document.createElement("p");
      p.textContent = line;
      if (bad) p.className = "bad";
      out.appendChild(p);
    };
    const blocks = readBlocks(text);
    if (!blocks.length) {
      document.body.dataset.verify = "fail";
      say("No dice block found: a report's dice block starts with the line `adjudicator dice`.", true);
      return;
    }
    let failed = false;
    for (const block of blocks) {
      const where = `game ${block.game || "?"}, turn ${block.turn || "?"}`;
      if (block.seed === null) {
        say(`${where}: the seed of this turn is not revealed yet, so its ${block.groups.length} dice group(s) cannot be checked yet; check the report that ends the turn`);
        continue;
      }
      const result = {problem: problemOf(block)};
      if (!result.problem) Object.assign(result, check(block));
      if (result.problem) {
        failed = true;
        say(`${where}: DOES NOT CHECK OUT: ${result.problem}`, true);
        continue;
      }
      const wrong = block.groups.filter((g, k) => result.groups[k].join(" ") !== block.values[k].join(" "));
      failed = failed || wrong.length > 0;
      const count = block.values.reduce((n, v) => n + v.length, 0);
      say(wrong.length ? `${where}: DOES NOT CHECK OUT` :
          `${where}: seed leads to anchor ${block.anchor.slice(0, 16)}…; ${block.groups.length} group(s), ${count} dice all match`,
          wrong.length > 0);
      for (const g of wrong) {
        const k = block.groups.indexOf(g);
        say(`  group ${g.label} (d${g.sides}): expected ${result.groups[k].join(" ")}, found ${block.values[k].join(" ")}`, true);
      }
    }
    const checked = blocks.some((b) => b.seed !== null);
    document.body.dataset.verify = failed ? "fail" : checked ? "ok" : "unrevealed";
  }

  /* What `verify` refuses in a block before any die: a line lost (`holds:`), salts given for other orders, sides
     no byte rule serves. */
  function problemOf(block) {
    const bad = block.groups.find((g) => g.sides < 2 || g.sides > 256);
    if (bad) return `${bad.label} has ${bad.sides} sides`;
    const dice = block.values.reduce((n, v) => n + v.length, 0);
    const holds = /^([0-9]{1,9}) groups?, ([0-9]{1,9}) dice$/i.exec(block.holds || "");
    if (block.holds && (!holds || Number(holds[1]) !== block.groups.length || Number(holds[2]) !== dice)) {
      return `the block says it holds ${block.holds}, but ${block.groups.length} groups and ${dice} dice were read: a dice line is missing or cut`;
    }
    if (block.binds || (block.orders && block.salts.length)) {
      const binds = block.binds || [];
      if (binds.length !== block.salts.length || !block.orders) return "the salts and the orders they bind do not match in number: a line is missing or cut";
      const k = binds.findIndex((b) => b !== block.orders);
      if (k >= 0) return `salt ${k + 1} was given for the orders with sha256 ${binds[k]}, not for those salted, ${block.orders}: the orders were changed after the salts`;
    }
    return "";
  }

  function zoomable(img) {     // a click or Enter toggles the map between the page's width and its own size
    const toggle = () => img.closest(".map").classList.toggle("zoomed");
    img.addEventListener("click", toggle);
    img.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } });
  }

  document.querySelectorAll(".map img").forEach(zoomable);
  const section = document.getElementById("dice");
  if (section) checkPage(section);
  const form = document.getElementById("paste");
  if (form) {
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      checkPaste(form.elements.report.value, document.getElementById("verdict"));
    });
  }
})();
