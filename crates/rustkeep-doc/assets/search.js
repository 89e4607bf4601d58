// The search box of the pages `rustkeep doc` writes. The index is in shards of scripts
// (static/search-N.js, each calling rkSearch.add) loaded the first time the box is used: a page
// opened from file:// may not fetch a file, and no page carries the index.
(function () {
  "use strict";
  var me = document.currentScript;
  var root = (me && me.getAttribute("data-root")) || "";
  var shards = Number((me && me.getAttribute("data-shards")) || 0);
  var records = [];
  var loading = null;
  window.rkSearch = {
    add: function (list) {
      for (var i = 0; i < list.length; i++) records.push(list[i]);
    },
  };

  function load() {
    if (loading) return loading;
    var parts = [];
    for (var i = 0; i < shards; i++) {
      parts.push(
        new Promise(function (ok, fail) {
          var s = document.createElement("script");
          s.src = root + "static/search-" + i + ".js";
          s.onload = ok;
          s.onerror = function () { fail(new Error("cannot load " + s.src)); };
          document.head.appendChild(s);
        })
      );
    }
    loading = Promise.all(parts);
    return loading;
  }

  // Lower is better: the exact ID or name, then prefixes, then a word of the name, then anywhere.
  function score(r, q) {
    var id = r[0].toLowerCase();
    var name = r[1].toLowerCase();
    var local = id.slice(id.indexOf(":") + 1);
    if (id === q) return 0;
    if (name === q) return 1;
    if (id.indexOf(q) === 0 || local.indexOf(q) === 0) return 2;
    if (name.indexOf(q) === 0) return 3;
    if ((" " + name).indexOf(" " + q) >= 0 || ("_" + local).indexOf("_" + q) >= 0) return 4;
    if (id.indexOf(q) >= 0 || name.indexOf(q) >= 0) return 5;
    return -1;
  }

  function find(q) {
    q = q.trim().toLowerCase();
    if (!q) return [];
    var hits = [];
    for (var i = 0; i < records.length; i++) {
      var s = score(records[i], q);
      if (s >= 0) hits.push([s, records[i]]);
    }
    hits.sort(function (a, b) {
      return a[0] - b[0] || (a[1][0] < b[1][0] ? -1 : a[1][0] > b[1][0] ? 1 : 0);
    });
    return hits.slice(0, 20).map(function (h) { return h[1]; });
  }

  function start() {
    var input = document.getElementById("search");
    var list = document.getElementById("search-results");
    var status = document.getElementById("search-status");
    if (!input || !list) return;
    var shown = [];
    var selected = -1;

    function select(i) {
      var items = list.children;
      for (var k = 0; k < items.length; k++) items[k].setAttribute("aria-selected", k === i ? "true" : "false");
      selected = i;
      if (i >= 0 && items[i]) {
        input.setAttribute("aria-activedescendant", items[i].id);
        items[i].scrollIntoView({ block: "nearest" });
      } else {
        input.removeAttribute("aria-activedescendant");
      }
    }

    function render() {
      shown = find(input.value);
      list.textContent = "";
      shown.forEach(function (r, i) {
        var li = document.createElement("li");
        li.id = "search-result-" + i;
        li.setAttribute("role", "option");
        // An option holds text only (a link inside an option would be a control inside a
        // control); choosing it, by click or Enter, goes to the entry.
        li.setAttribute("data-href", root + r[3]);
        li.addEventListener("click", function () { window.location.href = root + r[3]; });
        var name = document.createElement("span");
        name.textContent = r[1] ? r[1] + " " : "";
        var code = document.createElement("code");
        code.textContent = r[0];
        var kind = document.createElement("span");
        kind.className = "kind";
        kind.textContent = " " + r[2];
        li.appendChild(name);
        li.appendChild(code);
        li.appendChild(kind);
        list.appendChild(li);
      });
      var open = input.value.trim() !== "";
      list.hidden = !open;
      input.setAttribute("aria-expanded", open ? "true" : "false");
      if (status) status.textContent = open ? shown.length + (shown.length === 1 ? " result" : " results") : "";
      select(shown.length ? 0 : -1);
    }

    function update() {
      load().then(render, function (e) {
        if (status) status.textContent = "The search index could not be loaded: " + e.message;
      });
    }

    input.addEventListener("focus", function () { load(); });
    input.addEventListener("input", update);
    input.addEventListener("keydown", function (e) {
      if (e.key === "ArrowDown" && shown.length) {
        e.preventDefault();
        select((selected + 1) % shown.length);
      } else if (e.key === "ArrowUp" && shown.length) {
        e.preventDefault();
        select((selected - 1 + shown.length) % shown.length);
      } else if (e.key === "Enter") {
        e.preventDefault();
        load().then(function () {
          if (!shown.length) render();
          var r = shown[selected >= 0 ? selected : 0];
          if (r) window.location.href = root + r[3];
        });
      } else if (e.key === "Escape") {
        input.value = "";
        render();
      }
    });
    input.form && input.form.addEventListener("submit", function (e) { e.preventDefault(); });
    document.addEventListener("keydown", function (e) {
      var t = e.target;
      var typing = t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.isContentEditable);
      if (e.key === "/" && !typing && !e.ctrlKey && !e.metaKey && !e.altKey) {
        e.preventDefault();
        input.focus();
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
