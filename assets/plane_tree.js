// SVM Lab: the plane as a tree (in the spirit of Olli and Data Navigator), under the plane
// in the canvas (part of the plane's keyboard script: assets/plane_cursor.js makes one
// PlaneTree and renders it with the canvas's data).
//
// A role="tree" of the model as the canvas has it (PlaneKeys.model: the description, the
// points with their α, support-vector ring and margin y f(x) from the shading):
//   Model: <the description's summary>
//     Boundary and margins          → the description's boundary, region and margin lines
//     Support vectors by α (57)     → the support vectors, largest α first
//     All points (100)              → every point: "point 12 at (0.31, −1.20), class +1:
//                                     α = 0.5, free SV, y f(x) = 1.00 (on the margin)"
//     Support vectors: … / Training errors: …  (the description's other lines)
// Without a model (points only) the tree lists the points.
//
// Visually hidden until it holds the focus (Tab from the plane), then drawn under the plane.
// Keys (the WAI-ARIA tree pattern): ↑ / ↓ the previous / next visible node, → opens a node
// or goes to its first child, ← closes it or goes to its parent, Enter on a point selects
// it on the plane and gives the plane the focus (then M moves it, Delete erases it), Enter
// on a group opens or closes it. A point node with the focus is ringed on the plane and
// its α bar lit (the α-bar hover's ring). One node is in the Tab order (roving tabindex),
// kept across redraws by its id.

class PlaneTree {
  constructor(canvas, keys) {
    this.c = canvas;
    this.keys = keys;
    this.root = document.createElement("div");
    this.root.className = "svmlab-plane-tree";
    this.tree = document.createElement("ul");
    this.tree.setAttribute("role", "tree");
    this.tree.setAttribute("aria-label", "The model as a tree: boundary, support vectors, points");
    this.tree.setAttribute(ARROWS_ATTR, "on"); // assets/keys.js leaves the arrows here
    this.root.append(this.tree);
    canvas.stage.after(this.root);
    this.text = null; // what the tree shows (its outline and points as JSON)
    this.current = "model"; // id of the node in the Tab order
    this.tree.addEventListener("keydown", (e) => this.key(e));
    this.tree.addEventListener("focusin", (e) => this.focused(e.target));
    this.tree.addEventListener("focusout", (e) => {
      if (!this.tree.contains(e.relatedTarget) && this.ringed) {
        this.ringed = false;
        this.c.clearLinked();
        this.c.lightBar(null);
      }
    });
  }

  // Rebuild from the canvas's data (when its description, points or figure changed).
  render(data) {
    const keys = this.keys;
    const m = keys.model(data);
    const text = JSON.stringify([m.summary, m.boundary, m.other, m.svLabel, m.sv,
      m.points.map((p) => keys.describePoint(p, m))]);
    if (text === this.text) return;
    this.text = text;
    const hadFocus = this.tree.contains(document.activeElement);
    this.tree.textContent = "";
    this.byId = new Map();
    const pointItem = (parent, p, id) => {
      const li = this.item(parent, id, keys.describePoint(p, m), false);
      li.dataset.point = String(p.pos);
      return li;
    };
    if (m.summary) {
      const model = this.item(this.tree, "model", `Model: ${m.summary}`, true);
      const kids = this.group(model);
      if (m.boundary.length) {
        const bound = this.item(kids, "boundary", "Boundary and margins", false);
        const bk = this.group(bound);
        m.boundary.forEach((line, k) => this.item(bk, `boundary:${k}`, line, false));
      }
      if (m.svLabel) {
        const sv = this.item(kids, "sv", m.svLabel, false);
        const sk = this.group(sv);
        m.sv.forEach((pos) => pointItem(sk, m.points[pos], `sv:${m.points[pos].j}`));
      }
      const all = this.item(kids, "points", `All points (${m.points.length})`, false);
      const ak = this.group(all);
      m.points.forEach((p) => pointItem(ak, p, `point:${p.j}`));
      m.other.forEach((line, k) => this.item(kids, `other:${k}`, line, false));
    } else {
      const n = m.points.length;
      const all = this.item(this.tree, "model", `Points on the plane (${n}); no model yet`, true);
      const ak = this.group(all);
      m.points.forEach((p) => pointItem(ak, p, `point:${p.j}`));
    }
    if (!this.byId.has(this.current)) this.current = "model";
    this.setCurrent(this.current, hadFocus);
    this.c.plot.dataset.treeItems = String(this.byId.size);
  }

  item(parent, id, label, expanded) {
    const li = document.createElement("li");
    li.setAttribute("role", "treeitem");
    li.tabIndex = -1;
    li.dataset.id = id;
    const span = document.createElement("span");
    span.className = "svmlab-tree-label";
    span.textContent = label;
    li.append(span);
    li.dataset.open = expanded ? "1" : "";
    parent.append(li);
    this.byId.set(id, li);
    return li;
  }

  group(li) {
    const ul = document.createElement("ul");
    ul.setAttribute("role", "group");
    li.append(ul);
    this.sync(li);
    return ul;
  }

  // aria-expanded and the group's visibility from data-open.
  sync(li) {
    const ul = li.querySelector(":scope > ul");
    if (!ul) return;
    const open = li.dataset.open === "1";
    li.setAttribute("aria-expanded", open ? "true" : "false");
    ul.hidden = !open;
  }

  visible() {
    return Array.from(this.tree.querySelectorAll('[role="treeitem"]')).filter((li) => {
      for (let p = li.parentElement; p && p !== this.tree; p = p.parentElement) {
        if (p.hidden) return false;
      }
      return true;
    });
  }

  setCurrent(id, focus) {
    const li = this.byId.get(id);
    if (!li) return;
    for (const other of this.tree.querySelectorAll('[role="treeitem"][tabindex="0"]')) {
      other.tabIndex = -1;
    }
    li.tabIndex = 0;
    this.current = id;
    if (focus) li.focus();
  }

  // A node got the focus: the Tab order's node; a point is ringed on the plane.
  focused(li) {
    if (!li || li.getAttribute("role") !== "treeitem") return;
    this.setCurrent(li.dataset.id, false);
    this.c.plot.dataset.treeFocus = li.dataset.id;
    const pts = this.c.data.points;
    const pos = li.dataset.point === undefined ? -1 : Number(li.dataset.point);
    if (pos < 0 || !pts || pos >= pts.x.length) {
      if (this.ringed) this.c.clearLinked();
      this.ringed = false;
      return;
    }
    const j = pts.i ? pts.i[pos] : pos;
    this.ringed = true;
    this.c.linked = { index: j, x: pts.x[pos], y: pts.y[pos] };
    this.c.plot.dataset.linked = String(j);
    this.c.lightBar(j);
    this.c.drawOverlay();
  }

  key(e) {
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    const li = e.target.closest('[role="treeitem"]');
    if (!li) return;
    const vis = this.visible();
    const at = vis.indexOf(li);
    const hasKids = Boolean(li.querySelector(":scope > ul"));
    const open = li.dataset.open === "1";
    let to = null;
    if (e.key === "ArrowDown") to = vis[at + 1];
    else if (e.key === "ArrowUp") to = vis[at - 1];
    else if (e.key === "ArrowRight") {
      if (hasKids && !open) {
        li.dataset.open = "1";
        this.sync(li);
      } else if (hasKids) to = li.querySelector(':scope > ul > [role="treeitem"]');
    } else if (e.key === "ArrowLeft") {
      if (hasKids && open) {
        li.dataset.open = "";
        this.sync(li);
      } else to = li.parentElement.closest('[role="treeitem"]');
    } else if (e.key === "Enter") {
      if (li.dataset.point !== undefined) {
        const keys = this.keys;
        this.ringed = false;
        keys.select(Number(li.dataset.point), false);
        this.c.plot.focus();
        keys.setActive(true);
        keys.select(keys.sel);
      } else if (hasKids) {
        li.dataset.open = open ? "" : "1";
        this.sync(li);
      }
    } else {
      return;
    }
    e.preventDefault();
    e.stopPropagation();
    if (to) this.setCurrent(to.dataset.id, true);
  }
}
