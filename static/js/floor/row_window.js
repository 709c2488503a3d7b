// Which rows of the floor's room map are in (or near) the viewport, from the map's geometry.
//
// Each row's top and bottom are measured once after the map changes (a table added or dropped, the
// map arranged, its width changed: a ResizeObserver on the list), and a scroll looks them up by
// binary search: the map's blocks stack, each a grid filled row by row, so the tops never decrease in
// the list's order.
// An IntersectionObserver over the room's 1,000 rows did the same and cost Chromium ~2 ms twice a
// frame while updates flashed rows (its computeIntersections: a third of the floor page's frame budget
// at 200 updates/s, issue 26; bench/floor_frames.py).

export class RowWindow {
  /**
   * @param {HTMLElement} list the map's list (`#map-rows`): its `.map-row` children carry `data-table-id`
   * @param {{near: number, shown: () => boolean, onAdded: () => void}} options
   *   near: pixels above and below the viewport that count as in view;
   *   shown: whether the map is shown (a hidden map is neither measured nor looked at);
   *   onAdded: called when rows came into view (their cells are to be drawn)
   */
  constructor(list, { near, shown, onAdded }) {
    this.list = list;
    this.near = near;
    this.shown = shown;
    this.onAdded = onAdded;
    /** The table ids of the rows in view: the set the page reads. */
    this.inView = new Set();
    this.stale = true;
    this.ids = [];
    this.tops = [];
    this.bottoms = [];
    this.pending = false;
    window.addEventListener("scroll", () => this.schedule(), { passive: true });
    window.addEventListener("resize", () => this.invalidate());
    new ResizeObserver(() => this.invalidate()).observe(list);
  }

  /** The map changed: measure again before the next look (in the next animation frame). */
  invalidate() {
    this.stale = true;
    this.schedule();
  }

  /** Look again in the next animation frame (at most once a frame). */
  schedule() {
    if (this.pending) return;
    this.pending = true;
    requestAnimationFrame(() => {
      this.pending = false;
      this.look();
    });
  }

  measure() {
    this.stale = false;
    this.ids = [];
    this.tops = [];
    this.bottoms = [];
    const origin = this.list.getBoundingClientRect().top;
    for (const row of this.list.querySelectorAll(".map-row")) {
      const rect = row.getBoundingClientRect();
      this.ids.push(Number(row.dataset.tableId));
      this.tops.push(rect.top - origin);
      this.bottoms.push(rect.bottom - origin);
    }
  }

  /** inView := the rows within `near` pixels of the viewport; `onAdded` when rows came into view. */
  look() {
    if (!this.shown()) return;
    if (this.stale) this.measure();
    const origin = this.list.getBoundingClientRect().top;
    const from = -this.near - origin;
    const to = window.innerHeight + this.near - origin;
    let lo = 0; // the first row whose bottom is below `from`
    let hi = this.ids.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.bottoms[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    const seen = new Set();
    for (let i = lo; i < this.ids.length && this.tops[i] <= to; i += 1) seen.add(this.ids[i]);
    let added = false;
    for (const id of seen) {
      if (!this.inView.has(id)) {
        this.inView.add(id);
        added = true;
      }
    }
    for (const id of this.inView) if (!seen.has(id)) this.inView.delete(id);
    if (added) this.onAdded();
  }
}
