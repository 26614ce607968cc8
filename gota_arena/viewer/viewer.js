/* The GotA replay viewer: decodes the frames embedded in the page (gota_arena.frames
 * payload: zlib-compressed, delta/plane-encoded columns) and draws them on a canvas.
 * Vanilla JS, no network: the page works when opened from disk. Needs
 * DecompressionStream (Chrome 80+, Firefox 113+, Safari 16.4+).
 * window.gotaViewer is the page's handle (tests and the console): ready (a promise),
 * play(), pause(), seek(tick), setSpeed(x), setFog('none'|'red'|'blue'), state. */
(function () {
  "use strict";
  const S = 8;                              // canvas pixels per tile
  const TEAM_RGB = ["#d62626", "#2656e2", "#f2ce22"];
  const TEAM_LIGHT = ["#ff8080", "#8fb0ff", "#ffe066"];
  const TEAM_NAME = ["red", "blue", "neutral"];
  const KIND = {GOD: 1, HERO: 2, CREEP: 3, TOWER: 4, BARRACKS: 5, NEUTRAL: 6};
  const CAST = {MELEE: 1, PROJECTILE: 2, AREA: 3};
  const SHAPE = {CIRCLE: 1, SECTOR: 2, LINE: 3, CAPSULE: 4, RING: 5};
  const MATERIAL_RGB = {1: [104, 156, 74], 2: [196, 170, 118], 3: [118, 112, 104], 4: [30, 78, 38],
                        5: [222, 208, 164], 6: [132, 132, 136], 7: [58, 108, 196]};
  const LEVEL_SHADE = [0.85, 1.0, 1.12, 1.26];   // level -1..2 stored as 0..3
  const ICON = {first_blood: "\u271A", kill: "\u2716", tower: "\u25B2", barracks: "\u25A0", god: "\u2605",
                end: "\u2691"};

  const $ = (id) => document.getElementById(id);
  let readyResolve, readyReject;
  const api = {ready: new Promise((res, rej) => { readyResolve = res; readyReject = rej; }),
               state: {tick: 0, frame: 0, playing: false, speed: 8, fog: "none", drawn: 0, units: 0}};
  window.gotaViewer = api;

  function fail(message) {
    const box = $("error");
    box.style.display = "block";
    box.textContent = "This replay cannot be shown: " + message;
    readyReject(new Error(message));
  }

  // ---- decoding ---------------------------------------------------------------
  function b64bytes(text) {
    const bin = atob(text);
    const out = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }

  async function inflate(text) {
    if (typeof DecompressionStream === "undefined")
      throw new Error("this browser has no DecompressionStream; open the file in a current Chrome, Edge, " +
                      "Firefox (113+) or Safari (16.4+)");
    const stream = new Blob([b64bytes(text)]).stream().pipeThrough(new DecompressionStream("deflate"));
    return new Uint8Array(await new Response(stream).arrayBuffer());
  }

  const TYPES = {"|i1": Int8Array, "|u1": Uint8Array, "<i2": Int16Array, "<u2": Uint16Array,
                 "<i4": Int32Array, "<u4": Uint32Array};

  function decodeColumn(raw, c) {
    const Type = TYPES[c.dtype];
    if (!Type) throw new Error("unknown column type " + c.dtype + " of " + c.name);
    const w = Type.BYTES_PER_ELEMENT, n = c.size / w;
    const src = raw.subarray(c.offset, c.offset + c.size);
    const bytes = new Uint8Array(c.size);
    if (c.encoding.indexOf("planes") >= 0 && w > 1) {
      for (let k = 0; k < w; k++) {
        const plane = src.subarray(k * n, (k + 1) * n);
        for (let i = 0; i < n; i++) bytes[i * w + k] = plane[i];
      }
    } else bytes.set(src);
    const a = new Type(bytes.buffer);
    if (c.encoding.indexOf("delta") >= 0) {
      for (let i = 1; i < n; i++) a[i] = a[i - 1] + a[i];           // typed arrays wrap on store
    } else if (c.encoding.indexOf("xor") >= 0 && c.shape.length > 1) {
      let stride = 1;
      for (let k = 1; k < c.shape.length; k++) stride *= c.shape[k];
      for (let i = stride; i < n; i++) a[i] ^= a[i - stride];
    }
    return a;
  }

  async function decodeFrames(payload) {
    const raw = await inflate(payload.data);
    const col = {};
    for (const c of payload.columns) col[c.name] = decodeColumn(raw, c);
    return col;
  }

  // ---- the map ------------------------------------------------------------------
  async function terrainCanvas(map) {
    const n = map.tiles;
    const material = await inflate(map.material), level = await inflate(map.level);
    const img = new ImageData(n, n);
    for (let i = 0; i < n * n; i++) {
      const rgb = MATERIAL_RGB[material[i]] || [255, 255, 255];
      const shade = LEVEL_SHADE[level[i]] || 1;
      img.data[4 * i] = Math.min(255, rgb[0] * shade);
      img.data[4 * i + 1] = Math.min(255, rgb[1] * shade);
      img.data[4 * i + 2] = Math.min(255, rgb[2] * shade);
      img.data[4 * i + 3] = 255;
    }
    const small = document.createElement("canvas");
    small.width = small.height = n;
    small.getContext("2d").putImageData(img, 0, 0);
    const big = document.createElement("canvas");
    big.width = big.height = n * S;
    const g = big.getContext("2d");
    g.imageSmoothingEnabled = false;
    g.drawImage(small, 0, 0, n * S, n * S);
    // tile grid, faint
    g.strokeStyle = "rgba(0,0,0,0.06)";
    g.lineWidth = 1;
    g.beginPath();
    for (let t = 0; t <= n; t += 4) { g.moveTo(t * S, 0); g.lineTo(t * S, n * S); g.moveTo(0, t * S); g.lineTo(n * S, t * S); }
    g.stroke();
    // lane routes, dashed
    g.setLineDash([6, 6]);
    g.strokeStyle = "rgba(255,255,255,0.22)";
    g.lineWidth = 2;
    const half = n * map.tile_world / 2;
    for (const lane of map.lanes) {
      g.beginPath();
      lane.forEach(([x, z], i) => {
        const px = (x + half) / map.tile_world * S, py = (z + half) / map.tile_world * S;
        if (i) g.lineTo(px, py); else g.moveTo(px, py);
      });
      g.stroke();
    }
    g.setLineDash([]);
    // camp spots
    g.strokeStyle = "rgba(242,206,34,0.55)";
    for (const [x, z] of map.camps) {
      const px = (x + half) / map.tile_world * S, py = (z + half) / map.tile_world * S;
      g.strokeRect(px - S, py - S, 2 * S, 2 * S);
    }
    return big;
  }

  // ---- the viewer -----------------------------------------------------------------
  function Viewer(meta, col, terrain) {
    const F = meta.frames, T = meta.tracks, ticks = col["ticks"];
    const tr = {id: col["track.id"], kind: col["track.kind"], team: col["track.team"], sub: col["track.sub"],
                seat: col["track.seat"], first: col["track.first"], count: col["track.count"]};
    const offset = new Int32Array(T);
    for (let t = 1; t < T; t++) offset[t] = offset[t - 1] + tr.count[t - 1];
    const sx = col["sample.x"], sz = col["sample.z"], shp = col["sample.hp"], sflags = col["sample.flags"],
          starget = col["sample.target"];
    const heroes = meta.classes && meta.classes.length === 10 && col["hero.level"];
    const spellFrame = col["spell.frame"];
    const fogFrames = col["fog.frames"], fogBits = col["fog.bits"];
    const FOG_BYTES = Math.ceil(meta.map_tiles * meta.map_tiles / 8);
    const events = [];
    for (let i = 0; i < col["event.tick"].length; i++)
      events.push({tick: col["event.tick"][i], type: col["event.type"][i], kind: col["event.kind"][i],
                   team: col["event.team"][i], unit: col["event.unit"][i], other: col["event.other"][i],
                   x: col["event.x"][i], z: col["event.z"][i]});
    const DEATH = 2, STRUCTURE = 3;
    const flags = meta.flags;
    const canvas = $("map"), g = canvas.getContext("2d");
    const firstTick = ticks[0], lastTick = ticks[F - 1];
    const state = api.state;
    state.tick = firstTick;
    const fogCache = new Map();
    const shortName = meta.class_short || [];
    const px = (q) => q / meta.pos_scale * S;              // frame position -> canvas pixels
    const wpx = (w) => w / meta.tile * S;                   // world units -> canvas pixels

    function frameAt(tick) {                                // last frame at or before tick
      let lo = 0, hi = F - 1;
      if (tick <= ticks[0]) return 0;
      while (lo < hi) { const mid = (lo + hi + 1) >> 1; if (ticks[mid] <= tick) lo = mid; else hi = mid - 1; }
      return lo;
    }
    function sampleOf(t, f) {
      const k = f - tr.first[t];
      return k >= 0 && k < tr.count[t] ? offset[t] + k : -1;
    }
    function position(t, f, a) {                           // interpolated canvas position of track t
      const i = sampleOf(t, f);
      if (i < 0) return null;
      let x = sx[i], z = sz[i];
      const j = a > 0 ? sampleOf(t, f + 1) : -1;
      if (j >= 0) {
        const dx = sx[j] - x, dz = sz[j] - z;
        if (dx * dx + dz * dz < 9 * meta.pos_scale * meta.pos_scale) { x += dx * a; z += dz * a; }
      }
      return [px(x), px(z), i];
    }
    function fogCanvas(f) {
      let k = 0, lo = 0, hi = fogFrames.length - 1;
      while (lo <= hi) { const mid = (lo + hi) >> 1; if (fogFrames[mid] <= f) { k = mid; lo = mid + 1; } else hi = mid - 1; }
      const team = state.fog === "red" ? 0 : 1, key = k * 2 + team;
      if (fogCache.has(key)) return fogCache.get(key);
      const n = meta.map_tiles, img = new ImageData(n, n), base = (k * 2 + team) * FOG_BYTES;
      for (let i = 0; i < n * n; i++) {
        const seen = (fogBits[base + (i >> 3)] >> (i & 7)) & 1;
        img.data[4 * i + 3] = seen ? 0 : 150;
      }
      const c = document.createElement("canvas");
      c.width = c.height = n;
      c.getContext("2d").putImageData(img, 0, 0);
      if (fogCache.size > 64) fogCache.clear();
      fogCache.set(key, c);
      return c;
    }
    function visibleTo(i, t) {                              // sample i of track t seen by the fog team?
      if (state.fog === "none") return true;
      return (sflags[i] & (state.fog === "red" ? flags.seen_red : flags.seen_blue)) !== 0 ||
             tr.team[t] === (state.fog === "red" ? 0 : 1);
    }

    function hpBar(x, y, w, frac, color) {
      g.fillStyle = "rgba(0,0,0,0.65)";
      g.fillRect(x - w / 2 - 1, y - 1, w + 2, 4);
      g.fillStyle = color;
      g.fillRect(x - w / 2, y, w * frac, 2);
    }

    function drawSpell(k, f) {
      const ab = meta.abilities[col["spell.ability"][k]];
      if (!ab) return;
      const team = col["spell.team"][k], seen = col["spell.seen"][k];
      if (state.fog !== "none" && !(seen & (state.fog === "red" ? 1 : 2))) return;
      const x = px(col["spell.x"][k]), z = px(col["spell.z"][k]);
      const theta = col["spell.dir"][k] / 65536 * 2 * Math.PI;
      const left = col["spell.left"][k];
      const color = ab.harmful ? TEAM_RGB[team] : "#52d053";
      const urgency = Math.max(0.15, Math.min(0.5, 0.5 - left / 48));
      g.save();
      g.globalAlpha = 1;
      if (ab.cast === CAST.AREA) {
        g.translate(x, z);
        g.rotate(theta);
        g.beginPath();
        const r = wpx(ab.radius), w = wpx(ab.width);
        if (ab.shape === SHAPE.CIRCLE) g.arc(0, 0, r, 0, 2 * Math.PI);
        else if (ab.shape === SHAPE.RING) { g.arc(0, 0, r, 0, 2 * Math.PI); g.arc(0, 0, wpx(ab.inner), 0, 2 * Math.PI, true); }
        else if (ab.shape === SHAPE.SECTOR) {
          const half = ab.angle / 360 * Math.PI;
          g.moveTo(0, 0); g.arc(0, 0, r, -half, half); g.closePath();
        } else if (ab.shape === SHAPE.LINE) g.rect(0, -w / 2, r, w);
        else if (ab.shape === SHAPE.CAPSULE) {
          g.arc(0, 0, w / 2, Math.PI / 2, 3 * Math.PI / 2); g.lineTo(r, -w / 2);
          g.arc(r, 0, w / 2, -Math.PI / 2, Math.PI / 2); g.closePath();
        }
        g.fillStyle = color;
        g.globalAlpha = urgency;
        g.fill("evenodd");
        g.globalAlpha = 0.9;
        g.lineWidth = 1.5;
        g.strokeStyle = color;
        g.stroke();
      } else if (ab.cast === CAST.PROJECTILE) {
        g.strokeStyle = color;
        g.lineWidth = 2;
        g.globalAlpha = 0.8;
        g.beginPath();
        g.moveTo(x - Math.cos(theta) * 10, z - Math.sin(theta) * 10);
        g.lineTo(x, z);
        g.stroke();
        g.fillStyle = "#fff";
        g.beginPath(); g.arc(x, z, 2.5, 0, 2 * Math.PI); g.fill();
      } else {
        const ax = px(col["spell.aim_x"][k]), az = px(col["spell.aim_z"][k]);
        g.strokeStyle = "#fff";
        g.globalAlpha = 0.9;
        g.lineWidth = 2;
        g.beginPath(); g.arc(ax, az, 4, 0, 2 * Math.PI); g.stroke();
      }
      g.restore();
    }

    function drawMarker(e, age) {                          // a death: a cross that fades out
      const x = px(e.x), z = px(e.z);
      const hero = e.kind === KIND.HERO, structure = e.type === STRUCTURE;
      const life = hero || structure ? 120 : 36;
      if (age > life) return;
      const alpha = 1 - age / life, r = hero ? 7 : structure ? 10 : 2.5;
      g.save();
      g.globalAlpha = alpha;
      g.strokeStyle = hero || structure ? "#fff" : "rgba(20,20,20,0.9)";
      g.lineWidth = hero || structure ? 3 : 1.5;
      g.beginPath();
      g.moveTo(x - r, z - r); g.lineTo(x + r, z + r); g.moveTo(x + r, z - r); g.lineTo(x - r, z + r);
      g.stroke();
      if (hero || structure) {
        g.strokeStyle = TEAM_RGB[e.team] || "#fff";
        g.lineWidth = 1.5;
        g.stroke();
        g.beginPath(); g.arc(x, z, r + 4 + age / 8, 0, 2 * Math.PI); g.stroke();
      }
      g.restore();
    }

    // zoom and pan: canvas = (map pixel - view.x) * view.k
    const view = {k: 1, x: 0, y: 0};
    function clampView() {
      view.k = Math.max(1, Math.min(8, view.k));
      const span = canvas.width - canvas.width / view.k;
      view.x = Math.max(0, Math.min(span, view.x));
      view.y = Math.max(0, Math.min(span, view.y));
    }
    function zoom(factor, cx, cy) {                        // cx, cy: canvas pixels kept in place
      const wx = view.x + cx / view.k, wy = view.y + cy / view.k;
      view.k *= factor;
      clampView();
      view.x = wx - cx / view.k; view.y = wy - cy / view.k;
      clampView();
    }
    function toCanvas(ev) {
      const r = canvas.getBoundingClientRect();
      return [(ev.clientX - r.left) * canvas.width / r.width, (ev.clientY - r.top) * canvas.height / r.height];
    }
    canvas.addEventListener("wheel", (ev) => {
      ev.preventDefault();
      const [cx, cy] = toCanvas(ev);
      zoom(ev.deltaY < 0 ? 1.25 : 0.8, cx, cy);
      draw();
    }, {passive: false});
    let drag = null;
    canvas.addEventListener("mousedown", (ev) => { drag = toCanvas(ev); });
    window.addEventListener("mouseup", () => { drag = null; });
    canvas.addEventListener("mousemove", (ev) => {
      if (!drag) return;
      const [cx, cy] = toCanvas(ev);
      view.x -= (cx - drag[0]) / view.k; view.y -= (cy - drag[1]) / view.k;
      drag = [cx, cy];
      clampView();
      draw();
    });
    canvas.addEventListener("dblclick", () => { view.k = 1; view.x = view.y = 0; draw(); });

    function draw() {
      const tick = state.tick, f = frameAt(tick);
      const a = f < F - 1 ? (tick - ticks[f]) / (ticks[f + 1] - ticks[f]) : 0;
      state.frame = f;
      g.setTransform(1, 0, 0, 1, 0, 0);
      g.fillStyle = "#000";
      g.fillRect(0, 0, canvas.width, canvas.height);
      g.setTransform(view.k, 0, 0, view.k, -view.x * view.k, -view.y * view.k);
      g.drawImage(terrain, 0, 0);
      if (state.fog !== "none") {
        g.save();
        g.imageSmoothingEnabled = true;
        g.drawImage(fogCanvas(f), 0, 0, canvas.width, canvas.height);
        g.restore();
      }
      const order = [[], [], [], [], [], [], []];          // by kind: ground first, heroes last
      for (let t = 0; t < T; t++) {
        const k = f - tr.first[t];
        if (k < 0 || k >= tr.count[t]) continue;
        order[tr.kind[t]].push(t);
      }
      let drawn = 0;
      const lines = [];
      // structures
      for (const kind of [KIND.BARRACKS, KIND.TOWER, KIND.GOD]) for (const t of order[kind]) {
        const p = position(t, f, 0), i = p[2];
        const alive = sflags[i] & flags.alive, exposed = sflags[i] & flags.exposed;
        const half = kind === KIND.TOWER ? 1.25 * S : kind === KIND.BARRACKS ? 0.95 * S : 1.8 * S;
        g.globalAlpha = alive && !exposed ? 0.72 : 1;
        g.fillStyle = alive ? TEAM_RGB[tr.team[t]] : "#3c3834";
        g.strokeStyle = alive && exposed ? "#ffe066" : "#111";
        g.lineWidth = 2;
        g.beginPath();
        if (kind === KIND.GOD) g.arc(p[0], p[1], half, 0, 2 * Math.PI);
        else g.rect(p[0] - half, p[1] - half, 2 * half, 2 * half);
        g.fill(); g.stroke();
        g.globalAlpha = 1;
        if (alive && shp[i] < 255) hpBar(p[0], p[1] + half + 2, 2 * half + 4, shp[i] / 255, "#52d053");
        if (alive && kind === KIND.TOWER && starget[i] >= 0) lines.push([t, starget[i], "#ffb347", 2]);
        drawn++;
      }
      // creeps and neutrals
      for (const kind of [KIND.CREEP, KIND.NEUTRAL]) for (const t of order[kind]) {
        const p = position(t, f, a), i = p[2];
        if (!visibleTo(i, t)) continue;
        const r = kind === KIND.NEUTRAL ? (tr.sub[t] > 0 ? 3.6 : 3) : (tr.sub[t] === 1 ? 2.6 : 2.2);
        g.fillStyle = kind === KIND.NEUTRAL ? TEAM_RGB[2] : TEAM_LIGHT[tr.team[t]];
        g.strokeStyle = kind === KIND.NEUTRAL ? "#222" : TEAM_RGB[tr.team[t]];
        g.globalAlpha = sflags[i] & flags.returning ? 0.5 : 1;
        g.lineWidth = 1;
        g.beginPath(); g.arc(p[0], p[1], r, 0, 2 * Math.PI); g.fill(); g.stroke();
        g.globalAlpha = 1;
        if (shp[i] < 255) hpBar(p[0], p[1] - r - 4, 8, shp[i] / 255, kind === KIND.NEUTRAL ? "#ffe066" : "#52d053");
        drawn++;
      }
      // spells in flight
      let lo = 0, hi = spellFrame.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (spellFrame[mid] < f) lo = mid + 1; else hi = mid; }
      for (let k = lo; k < spellFrame.length && spellFrame[k] === f; k++) drawSpell(k, f);
      // heroes
      const heroPos = [];
      for (const t of order[KIND.HERO]) {
        const p = position(t, f, a), i = p[2];
        if (!(sflags[i] & flags.alive) || !visibleTo(i, t)) continue;
        heroPos.push([t, p, i]);
        if (starget[i] >= 0) lines.push([t, starget[i], TEAM_LIGHT[tr.team[t]], 1.5]);
      }
      // target lines (under the hero discs)
      for (const [t, u, color, width] of lines) {
        const p = position(t, f, a), q = position(u, f, a);
        if (!p || !q) continue;
        const qi = q[2];
        if (state.fog !== "none" && !visibleTo(qi, u)) continue;
        g.strokeStyle = color; g.lineWidth = width; g.globalAlpha = 0.75;
        g.beginPath(); g.moveTo(p[0], p[1]); g.lineTo(q[0], q[1]); g.stroke();
        g.globalAlpha = 1;
      }
      for (const [t, p, i] of heroPos) {
        const team = tr.team[t], seat = tr.seat[t];
        const r = 9;
        g.fillStyle = TEAM_RGB[team];
        g.strokeStyle = sflags[i] & (flags.stunned | flags.rooted | flags.silenced) ? "#c77dff" : "#fff";
        g.lineWidth = 2;
        g.beginPath(); g.arc(p[0], p[1], r, 0, 2 * Math.PI); g.fill(); g.stroke();
        if (heroes) {                                       // facing tick
          const facing = col["hero.facing"][seat * F + f] / 65536 * 2 * Math.PI;
          g.strokeStyle = "#fff"; g.lineWidth = 2;
          g.beginPath(); g.moveTo(p[0] + Math.cos(facing) * r, p[1] + Math.sin(facing) * r);
          g.lineTo(p[0] + Math.cos(facing) * (r + 4), p[1] + Math.sin(facing) * (r + 4)); g.stroke();
        }
        g.fillStyle = "#fff";
        g.font = "bold 9px system-ui, sans-serif";
        g.textAlign = "center"; g.textBaseline = "middle";
        g.fillText(shortName[heroes ? meta.classes[seat] : 0] || String(seat), p[0], p[1] + 0.5);
        hpBar(p[0], p[1] - r - 6, 22, shp[i] / 255, "#52d053");
        if (sflags[i] & flags.channeling) {
          g.strokeStyle = "#9ef"; g.lineWidth = 1.5;
          g.beginPath(); g.arc(p[0], p[1], r + 5, 0, 2 * Math.PI); g.stroke();
        }
        drawn++;
      }
      // deaths
      for (const e of events) {
        if (e.tick > tick) break;
        if (tick - e.tick <= 120 && (e.type === DEATH || e.type === STRUCTURE)) {
          if (state.fog !== "none" && e.type === DEATH && e.kind !== KIND.HERO &&
              e.team !== (state.fog === "red" ? 0 : 1)) continue;
          drawMarker(e, tick - e.tick);
        }
      }
      state.drawn = drawn;
      api.state.units = drawn;
    }

    return {draw, frameAt, ticks, F, firstTick, lastTick, tr, offset, events, heroes, col, view, zoom};
  }

  // ---- panels ----------------------------------------------------------------------
  function clock(tick, tps) {
    const s = Math.floor(tick / tps), m = Math.floor(s / 60);
    return m + ":" + String(s % 60).padStart(2, "0");
  }

  function panels(meta, v) {
    const tps = meta.ticks_per_second, F = v.F, col = v.col;
    const table = $("heroes"), score = $("score"), list = $("events");
    const rows = [];
    if (v.heroes) {
      for (let seat = 0; seat < 10; seat++) {
        const tr = document.createElement("tr");
        const team = seat < 5 ? "red" : "blue";
        const cls = meta.classes[seat];
        tr.innerHTML = `<td><span class="cls ${team}">${meta.class_short[cls]}</span></td>` +
          `<td><div>${meta.class_names[seat]} <span class="kda lvl"></span></div>` +
          `<div class="bar hp"><i></i></div><div class="bar mp"><i></i></div></td>` +
          `<td><div class="kda k"></div><div class="gold g"></div></td><td class="kda r"></td>`;
        tr.title = `seat ${seat} (${team}), ${meta.bots[seat]}`;
        table.appendChild(tr);
        rows.push({tr, lvl: tr.querySelector(".lvl"), hp: tr.querySelector(".hp i"), mp: tr.querySelector(".mp i"),
                   k: tr.querySelector(".k"), g: tr.querySelector(".g"), r: tr.querySelector(".r")});
      }
    } else table.innerHTML = "<tr><td class='kda'>a match without heroes</td></tr>";
    // the event list and the timeline
    const timeline = $("timeline"), span = Math.max(v.lastTick - v.firstTick, 1);
    const minute = 60 * tps, step = span > 40 * minute ? 5 * minute : span > 10 * minute ? 2 * minute : minute;
    for (let t = Math.ceil(v.firstTick / step) * step; t <= v.lastTick; t += step) {
      const d = document.createElement("div");
      d.className = "axis";
      d.style.left = ((t - v.firstTick) / span * 100) + "%";
      d.innerHTML = `<span>${clock(t, tps)}</span>`;
      timeline.appendChild(d);
    }
    const items = [];
    for (const e of meta.timeline) {
      if (e.tick < v.firstTick || e.tick > v.lastTick) continue;
      const b = document.createElement("button");
      b.className = `ev ${e.type} ${e.team}`;
      b.style.left = ((e.tick - v.firstTick) / span * 100) + "%";
      b.textContent = ICON[e.type] || "\u2022";
      b.title = `${clock(e.tick, tps)} ${e.label}`;
      b.addEventListener("click", (ev) => { ev.stopPropagation(); api.seek(e.tick - 2 * tps); });
      timeline.appendChild(b);
      const row = document.createElement("div");
      row.innerHTML = `<span class="t">${clock(e.tick, tps)}</span>${ICON[e.type] || ""} ${e.label}`;
      row.style.color = e.team === "red" ? "#ff8f8f" : e.team === "blue" ? "#9db8ff" : "";
      row.addEventListener("click", () => api.seek(e.tick - 2 * tps));
      list.appendChild(row);
      items.push([e, row]);
    }
    if (!items.length) list.innerHTML = "<div class='future'>no kills or structures in this part of the match</div>";
    const cursor = document.createElement("div");
    cursor.className = "cursor";
    timeline.appendChild(cursor);
    timeline.addEventListener("click", (ev) => {
      const r = timeline.getBoundingClientRect();
      api.seek(v.firstTick + (ev.clientX - r.left) / r.width * span);
    });
    const gods = [], towers = [[], []];
    for (let t = 0; t < v.tr.id.length; t++) {
      if (v.tr.kind[t] === KIND.GOD) gods[v.tr.team[t]] = t;
      if (v.tr.kind[t] === KIND.TOWER) towers[v.tr.team[t]].push(t);
    }
    let last = -1, lastRow = null;
    return function update() {
      const f = api.state.frame, tick = api.state.tick;
      cursor.style.left = ((tick - v.firstTick) / span * 100) + "%";
      $("clock").textContent = `${clock(tick, tps)} / ${clock(v.lastTick, tps)}`;
      if (f === last) return;
      last = f;
      let current = null;
      for (const [e, row] of items) {
        row.className = e.tick <= tick ? "" : "future";
        if (e.tick <= tick) current = row;
      }
      if (current) current.className = "now";
      if (current && current !== lastRow) {
        lastRow = current;
        list.scrollTop = Math.max(0, current.offsetTop - list.offsetTop - list.clientHeight / 2);
      }
      const kills = [0, 0], god = [0, 0], standing = [0, 0];
      const sample = (t) => { const k = f - v.tr.first[t]; return k >= 0 && k < v.tr.count[t] ? k : -1; };
      for (let team = 0; team < 2; team++) {
        const t = gods[team];
        if (t !== undefined) {
          const k = sample(t);
          god[team] = k >= 0 ? Math.round(col["sample.hp"][v.offset[t] + k] / 2.55) : 0;
        }
      }
      for (let team = 0; team < 2; team++) for (const t of towers[team]) {
        const k = sample(t);
        if (k >= 0 && (col["sample.flags"][v.offset[t] + k] & meta.flags.alive)) standing[team]++;
      }
      if (v.heroes) {
        for (let seat = 0; seat < 10; seat++) {
          const at = seat * F + f, row = rows[seat];
          const hp = col["hero.hp"][at], mhp = col["hero.max_hp"][at], mp = col["hero.mana"][at],
                mmp = col["hero.max_mana"][at];
          kills[seat < 5 ? 0 : 1] += col["hero.kills"][at];
          row.lvl.textContent = "L" + col["hero.level"][at];
          row.hp.style.width = (mhp ? 100 * hp / mhp : 0) + "%";
          row.mp.style.width = (mmp ? 100 * mp / mmp : 0) + "%";
          row.k.textContent = `${col["hero.kills"][at]}/${col["hero.deaths"][at]}/${col["hero.assists"][at]}`;
          row.g.textContent = `${col["hero.gold"][at]} g`;
          const respawn = col["hero.respawn_ticks"][at];
          row.r.textContent = hp <= 0 && respawn ? `${Math.ceil(respawn / tps)}s` : "";
          row.tr.className = hp <= 0 ? "dead" : "";
          const names = [];
          for (let s = 0; s < 6; s++) {
            const item = col["hero.item"][(seat * 6 + s) * F + f];
            if (item) names.push(meta.items[item] + (col["hero.item_count"][(seat * 6 + s) * F + f] > 1 ?
              " x" + col["hero.item_count"][(seat * 6 + s) * F + f] : ""));
          }
          row.tr.title = `seat ${seat}, ${meta.bots[seat]}; hp ${hp}/${mhp}, mana ${mp}/${mmp}, ` +
            `xp ${col["hero.xp"][at]}, last hits ${col["hero.last_hits"][at]}` +
            (names.length ? "; items: " + names.join(", ") : "");
        }
      }
      score.innerHTML = `<div><div class="big red">${kills[0]}</div><div class="lab">red kills</div></div>` +
        `<div class="lab">god hp<br>${god[0]}% : ${god[1]}%<br>towers<br>${standing[0]} : ${standing[1]}</div>` +
        `<div><div class="big blue">${kills[1]}</div><div class="lab">blue kills</div></div>`;
    };
  }

  // ---- start -------------------------------------------------------------------------
  async function start() {
    const map = JSON.parse($("gota-map").textContent);
    const payload = JSON.parse($("gota-frames").textContent);
    const meta = payload.meta;
    if (meta.format !== "gota-frames" || meta.version !== 1)
      throw new Error(`frames format ${meta.format} version ${meta.version}; this viewer reads gota-frames 1`);
    const [col, terrain] = await Promise.all([decodeFrames(payload), terrainCanvas(map)]);
    const v = Viewer(meta, col, terrain);
    const update = panels(meta, v);
    const state = api.state;
    const seek = $("seek"), play = $("play");
    seek.min = v.firstTick; seek.max = v.lastTick; seek.value = v.firstTick;
    const tps = meta.ticks_per_second;
    const winner = meta.winner ? `${meta.winner} wins` : meta.result;
    const side = (bots) => Object.entries(bots.reduce((n, b) => (n[b] = (n[b] || 0) + 1, n), {}))
      .map(([b, n]) => (n > 1 ? n + " \u00d7 " : "") + b).join(", ");
    $("subtitle").textContent = `${side(meta.bots.slice(0, 5))} (red) vs ${side(meta.bots.slice(5))} (blue)` +
      ` \u2014 ${winner} at ${clock(meta.final_tick, tps)} \u2014 frames every ${meta.every} ticks` +
      (meta.first_tick > 0 || meta.last_tick < meta.final_tick ?
        ` \u2014 segment ${clock(meta.first_tick, tps)}\u2013${clock(meta.last_tick, tps)}` : "");
    let lastTime = null;
    function render() { v.draw(); update(); seek.value = Math.round(state.tick); }
    function frame(now) {
      if (state.playing) {
        if (lastTime !== null) state.tick = Math.min(v.lastTick, state.tick + (now - lastTime) / 1000 * tps * state.speed);
        lastTime = now;
        if (state.tick >= v.lastTick) api.pause();
        render();
      } else lastTime = null;
      requestAnimationFrame(frame);
    }
    api.play = () => {
      if (state.tick >= v.lastTick) state.tick = v.firstTick;
      state.playing = true; play.innerHTML = "&#10074;&#10074; pause";
    };
    api.pause = () => { state.playing = false; play.innerHTML = "&#9654; play"; };
    api.seek = (tick) => { state.tick = Math.max(v.firstTick, Math.min(v.lastTick, Number(tick))); render(); };
    api.setSpeed = (x) => { state.speed = Number(x); $("speed").value = String(x); };
    api.setFog = (team) => { state.fog = team; $("fog").value = team; render(); };
    api.meta = meta;
    api.zoom = (factor, cx, cy) => { v.zoom(factor, cx === undefined ? 464 : cx, cy === undefined ? 464 : cy); render(); };
    play.addEventListener("click", () => (state.playing ? api.pause() : api.play()));
    seek.addEventListener("input", () => api.seek(seek.value));
    $("speed").addEventListener("change", (e) => api.setSpeed(e.target.value));
    $("fog").addEventListener("change", (e) => api.setFog(e.target.value));
    document.addEventListener("keydown", (e) => {
      if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
      if (e.code === "Space") { e.preventDefault(); state.playing ? api.pause() : api.play(); }
      else if (e.code === "ArrowRight") api.seek(state.tick + 10 * tps);
      else if (e.code === "ArrowLeft") api.seek(state.tick - 10 * tps);
    });
    if (meta.initial_fog === "red" || meta.initial_fog === "blue") api.setFog(meta.initial_fog);
    render();
    requestAnimationFrame(frame);
    document.body.dataset.ready = "1";
    readyResolve(api);
  }

  start().catch((e) => { console.error(e); fail(e && e.message ? e.message : String(e)); });
})();
