// Keyboard play on a drawn map (both games): the map is one stop of the Tab order (a "roving" tabindex: one place
// at a time takes the focus); the arrow keys move to the nearest place in that direction among the places that
// can be chosen now (every place when none can); Home/End go to the first/last of them; Enter or Space chooses
// the focused place as a click does; the game module may take more keys (a digit: place that many). Every place
// is a button for a screen reader, named by the game module with its owner and its units ("Italia, Red (you),
// 5 legionaries"); the drawn labels and numbers are hidden from it (they say the same, as a run-on list).

/** The place to move to from `from` ({x, y}) in `dir` ("left", "right", "up", "down") among `points` ([{id, x, y}]):
 * the nearest one ahead, a sideways step counting twice as much as one ahead (SVG y grows downwards); a place
 * more ahead than aside (within 45 degrees of the direction) first, else any place ahead; null when none is ahead. Pure
 * (tests/js/ runs it in Node). */
export function nearestInDirection(points, from, dir) {
  let best = null;
  let bestScore = Infinity;
  for (const p of points) {
    if (p.id === from.id) continue;
    const dx = p.x - from.x;
    const dy = p.y - from.y;
    const ahead = dir === "right" ? dx : dir === "left" ? -dx : dir === "down" ? dy : -dy;
    const side = dir === "right" || dir === "left" ? Math.abs(dy) : Math.abs(dx);
    if (ahead <= 0) continue;
    const score = ahead + 2 * side + (side > ahead ? 1e6 : 0);
    if (score < bestScore) { bestScore = score; best = p; }
  }
  return best;
}

/** In reading order (top to bottom, then left to right, in bands of `band` units): the order of Home/End and of
 * the arrows when nothing lies ahead. */
export function readingOrder(points, band = 40) {
  return [...points].sort((a, b) => Math.floor(a.y / band) - Math.floor(b.y / band) || a.x - b.x);
}

const DIRS = { ArrowRight: "right", ArrowLeft: "left", ArrowUp: "up", ArrowDown: "down" };

/** Make the places of `svg` playable from the keyboard. `places`: [{id, el, x, y}] (el: the element that takes
 * the focus); `targets()`: the ids that can be chosen now (a Set); `choose(id)`: what a click does; `key(id, key)`:
 * the game's own keys on a focused place (true when it used the key). Returns {sync, focused, focusFirst}: sync()
 * after each redraw (which place the Tab key reaches), focused() the focused place's id (or null). */
export function mapNav(svg, { places, targets, choose, key, label, ringAfter }) {
  const byId = new Map(places.map((p) => [p.id, p]));
  const byEl = new Map(places.map((p) => [p.el, p]));
  let current = places.length ? places[0].id : null;
  svg.setAttribute("role", "group");
  if (label) svg.setAttribute("aria-label", label());
  // the focused area's outline, drawn again over its neighbours (after `ringAfter`, under the labels): the border
  // of the area itself is half hidden by theirs
  const ring = ringAfter ? document.createElementNS("http://www.w3.org/2000/svg", "path") : null;
  if (ring) {
    ring.setAttribute("class", "focusring");
    ring.setAttribute("aria-hidden", "true");
    ring.style.display = "none";
    ringAfter.after(ring);
  }
  for (const p of places) {
    p.el.setAttribute("tabindex", "-1");
    p.el.setAttribute("role", "button");
    p.el.addEventListener("focus", () => {
      setCurrent(p.id);
      if (ring && p.el.getAttribute("d") && p.el.matches(":focus-visible")) {
        ring.setAttribute("d", p.el.getAttribute("d"));
        ring.style.display = "";
      }
    });
    p.el.addEventListener("blur", () => { if (ring) ring.style.display = "none"; });
  }

  function setCurrent(id) {
    if (!byId.has(id)) return;
    if (current && byId.has(current)) byId.get(current).el.setAttribute("tabindex", "-1");
    current = id;
    byId.get(id).el.setAttribute("tabindex", "0");
  }

  function pool() {
    const now = targets();
    const list = places.filter((p) => now.has(p.id));
    return list.length ? list : places;
  }

  function focusPlace(id) {
    setCurrent(id);
    byId.get(id).el.focus({ preventScroll: false });
  }

  svg.addEventListener("keydown", (e) => {
    const p = byEl.get(e.target);
    if (!p || e.ctrlKey || e.metaKey || e.altKey) return;
    const dir = DIRS[e.key];
    if (dir) {
      const list = pool();
      let next = nearestInDirection(list, p, dir);
      if (!next) {
        // nothing ahead: the next (or previous) place in reading order, round the map
        const order = readingOrder(list.some((q) => q.id === p.id) ? list : [...list, p]);
        const i = order.findIndex((q) => q.id === p.id);
        const d = dir === "right" || dir === "down" ? 1 : -1;
        next = order[(i + d + order.length) % order.length];
      }
      if (next && next.id !== p.id) focusPlace(next.id);
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Home" || e.key === "End") {
      const order = readingOrder(pool());
      if (order.length) focusPlace((e.key === "Home" ? order[0] : order[order.length - 1]).id);
      e.preventDefault();
      e.stopPropagation();
    } else if (e.key === "Enter" || e.key === " ") {
      choose(p.id);
      e.preventDefault();
      e.stopPropagation();
    } else if (key && key(p.id, e.key)) {
      e.preventDefault();
      e.stopPropagation();
    }
  });

  return {
    /** After a redraw: the places that cannot be chosen say so; the Tab key reaches a place that can (the focused
     * one stays as it is). */
    sync() {
      const now = targets();
      for (const p of places) p.el.setAttribute("aria-disabled", String(!now.has(p.id)));
      if (label) svg.setAttribute("aria-label", label());
      const active = document.activeElement;
      if (active && byEl.has(active)) return;
      if (!now.has(current)) {
        const first = readingOrder(places.filter((p) => now.has(p.id)))[0];
        if (first) setCurrent(first.id);
      }
    },
    focused() {
      const p = byEl.get(document.activeElement);
      return p ? p.id : null;
    },
    /** Put the focus on the map: the place the Tab key reaches. */
    focus() {
      if (current && byId.has(current)) focusPlace(current);
    },
  };
}
