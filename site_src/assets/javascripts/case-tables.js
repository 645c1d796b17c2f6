/* Sort and filter the case tables of the rules oracle. Written for this site, no dependencies.
 *
 * Every table the site renders from the catalogue is preceded by an empty, hidden
 * <div class="oracle-case-table-data" data-rows="[...]"> carrying one object per row (answer,
 * variant, topic). This script adds a small filter bar above the table and puts a button in
 * each column header that sorts the rows (a third press restores the catalogue's order).
 */
(function () {
  "use strict";

  function nextTable(marker) {
    for (var node = marker.nextElementSibling; node; node = node.nextElementSibling) {
      if (node.tagName === "TABLE") return node;
      var inner = node.querySelector && node.querySelector("table");
      if (inner) return inner;
    }
    return null;
  }

  function distinct(rows, key) {
    var seen = [];
    rows.forEach(function (row) {
      if (seen.indexOf(row[key]) < 0) seen.push(row[key]);
    });
    return seen.sort();
  }

  function select(label, key, values, onChange) {
    var wrapper = document.createElement("label");
    wrapper.textContent = label + " ";
    var choice = document.createElement("select");
    choice.dataset.key = key;
    var all = document.createElement("option");
    all.value = "";
    all.textContent = "all";
    choice.appendChild(all);
    values.forEach(function (value) {
      var option = document.createElement("option");
      option.value = value;
      option.textContent = value;
      choice.appendChild(option);
    });
    choice.addEventListener("change", onChange);
    wrapper.appendChild(choice);
    return wrapper;
  }

  function enhance(marker) {
    var table = nextTable(marker);
    if (!table || !table.tBodies.length) return;
    var data = JSON.parse(marker.getAttribute("data-rows"));
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    if (rows.length !== data.length) return;
    rows.forEach(function (row, index) {
      row.dataset.answer = data[index].answer;
      row.dataset.variant = data[index].variant;
      row.dataset.topic = data[index].topic;
      row.dataset.order = String(index);
    });
    // Data attributes, not classes: Material styles only tables that have no class.
    table.setAttribute("data-oracle-sortable", "");
    if (marker.classList.contains("oracle-index")) table.setAttribute("data-oracle-index", "");

    var bar = document.createElement("div");
    bar.className = "oracle-filters";
    var count = document.createElement("span");
    count.className = "oracle-count";
    var search = document.createElement("input");
    search.type = "search";
    search.placeholder = "Filter by words";
    search.setAttribute("aria-label", "Filter the rows by words");

    function apply() {
      var wanted = {};
      bar.querySelectorAll("select").forEach(function (choice) {
        if (choice.value) wanted[choice.dataset.key] = choice.value;
      });
      var words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
      var shown = 0;
      rows.forEach(function (row) {
        var keep = Object.keys(wanted).every(function (key) {
          return row.dataset[key] === wanted[key];
        });
        var text = row.textContent.toLowerCase();
        keep = keep && words.every(function (word) { return text.indexOf(word) >= 0; });
        row.hidden = !keep;
        if (keep) shown += 1;
      });
      count.textContent = shown + " of " + rows.length + " cases";
    }

    [["Answer", "answer"], ["Variant", "variant"], ["Topic", "topic"]].forEach(function (pair) {
      var values = distinct(data, pair[1]);
      if (values.length > 1) bar.appendChild(select(pair[0], pair[1], values, apply));
    });
    search.addEventListener("input", apply);
    bar.appendChild(search);
    bar.appendChild(count);
    var holder = table.closest(".md-typeset__scrollwrap") || table;
    holder.parentNode.insertBefore(bar, holder);
    apply();

    // Each header keeps its table semantics (aria-sort on the th); a button inside it sorts.
    var headers = Array.prototype.slice.call(table.tHead.rows[0].cells);
    headers.forEach(function (header, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "oracle-sort";
      while (header.firstChild) button.appendChild(header.firstChild);
      header.appendChild(button);
      function sort() {
        var state = header.getAttribute("aria-sort");
        var next = state === "ascending" ? "descending" : state === "descending" ? "none" : "ascending";
        headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
        if (next !== "none") header.setAttribute("aria-sort", next);
        var sorted = rows.slice().sort(function (a, b) {
          if (next === "none") return Number(a.dataset.order) - Number(b.dataset.order);
          var x = a.cells[column].textContent.trim();
          var y = b.cells[column].textContent.trim();
          var order = x.localeCompare(y, undefined, { numeric: true, sensitivity: "base" });
          return next === "ascending" ? order : -order;
        });
        sorted.forEach(function (row) { body.appendChild(row); });
      }
      button.addEventListener("click", sort);
    });
  }

  function start() {
    document.querySelectorAll(".oracle-case-table-data").forEach(enhance);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
