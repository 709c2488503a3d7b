// The floor map's rings: how a row shows that its table changed.

// A changed row is marked `flash` (for good, as the tiles are) and ringed (`ring`) for RING_MS; one sweep
// every 150 ms takes the rings off. A steady ring, not an animated one: an animated ring made the map
// repaint every frame while a dozen rows in view changed at 200 updates/s (issue 26).
const RING_MS = 900;
const ringUntil = new Map(); // row element -> performance.now() when its ring goes
let sweep = null;

/** Mark `row` as changed: its ring shows for RING_MS. */
export function ringRow(row) {
  row.classList.add("flash", "ring");
  ringUntil.set(row, performance.now() + RING_MS);
  if (sweep === null) sweep = setInterval(sweepRings, 150);
}

function sweepRings() {
  const now = performance.now();
  for (const [row, until] of ringUntil) {
    if (until > now) continue;
    row.classList.remove("ring");
    ringUntil.delete(row);
  }
  if (!ringUntil.size) {
    clearInterval(sweep);
    sweep = null;
  }
}
