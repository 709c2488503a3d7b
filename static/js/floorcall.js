// The floor call page's point-and-click correction (templates/rules/floor_call.html):
// pick an action, pick what the floor rules, pick what stands instead (amounts on the keypad);
// every change asks the server for the corrected hand (POST preview/, which changes nothing)
// and shows it before the floorman applies the correction.
(function () {
  "use strict";
  var form = document.getElementById("fc-form");
  if (!form) return;
  var previewUrl = form.getAttribute("data-preview-url");
  var amount = form.querySelector(".fc-amount-input");
  var amountBox = form.querySelector(".fc-amount");
  var bounds = form.querySelector('[data-f="bounds"]');
  var body = form.querySelector('[data-f="preview"]');
  var text = form.querySelector('[data-f="preview-text"]');
  var error = form.querySelector('[data-f="preview-error"]');
  var apply = form.querySelector(".fc-apply");
  var pending = null;
  var limits = { min: null, max: null };

  function checked(name) {
    var el = form.querySelector('input[name="' + name + '"]:checked');
    return el ? el.value : "";
  }

  function show(el, on) {
    if (on) el.removeAttribute("hidden");
    else el.setAttribute("hidden", "");
  }

  function uncheck(selector) {
    form.querySelectorAll(selector).forEach(function (el) { el.checked = false; });
  }

  // Which parts of the form apply now: the detail step of the picked type, the alternatives and
  // later actions of the picked action, the keypad for a bet, raise or adjustment.
  function layout() {
    var index = checked("index");
    var ctype = checked("ctype");
    var actionRow = index ? form.querySelector('.fc-action[data-index="' + index + '"]') : null;
    var isBet = actionRow && ["bet", "raise"].indexOf(actionRow.getAttribute("data-type")) >= 0;
    form.querySelectorAll(".fc-types .fc-tap").forEach(function (label) {
      var input = label.querySelector("input");
      var needs = label.hasAttribute("data-needs-action");
      var off = (needs && !index) || (label.hasAttribute("data-needs-bet") && !isBet);
      if (label.classList.contains("fc-off") && !needs) return;
      input.disabled = off;
      label.classList.toggle("fc-off", off);
      if (off && input.checked) { input.checked = false; ctype = ""; }
    });
    form.querySelectorAll(".fc-detail").forEach(function (box) {
      show(box, box.getAttribute("data-for") === ctype);
    });
    form.querySelectorAll(".fc-alts, .fc-later").forEach(function (box) {
      var mine = box.getAttribute("data-for-index") === index;
      show(box, mine);
      box.querySelectorAll("input").forEach(function (input) { input.disabled = !mine; });
    });
    var alt = checked("action");
    var altLabel = alt && index
      ? form.querySelector('.fc-alts[data-for-index="' + index + '"] [data-alt="' + alt + '"]') : null;
    var keypad = (ctype === "replace" && altLabel && altLabel.hasAttribute("data-min")) || ctype === "adjust";
    show(amountBox, keypad);
    amount.disabled = !keypad;
    limits = { min: null, max: null };
    if (ctype === "replace" && altLabel && altLabel.hasAttribute("data-min")) {
      limits = { min: altLabel.getAttribute("data-min"), max: altLabel.getAttribute("data-max") };
    }
    bounds.textContent = limits.min ? limits.min + "–" + limits.max : "";
    form.querySelectorAll(".fc-tap").forEach(function (label) {
      var input = label.querySelector("input");
      label.classList.toggle("fc-on", !!(input && input.checked));
    });
  }

  function previewReady(ok) {
    apply.disabled = !ok;
    form.classList.toggle("fc-ready", ok);
  }

  function preview() {
    layout();
    if (!checked("ctype")) { previewReady(false); return; }
    if (pending) pending.abort();
    pending = new AbortController();
    var data = new FormData(form);
    fetch(previewUrl, {
      method: "POST",
      body: data,
      credentials: "same-origin",
      headers: { "X-Requested-With": "fetch" },
      signal: pending.signal,
    }).then(function (r) { return r.json(); }).then(function (result) {
      pending = null;
      if (result.ok) {
        text.textContent = result.text;
        body.innerHTML = result.html;
        show(error, false);
        previewReady(true);
      } else {
        text.textContent = result.text || "";
        body.innerHTML = "";
        error.textContent = result.error;
        show(error, true);
        previewReady(false);
      }
    }).catch(function (exc) {
      if (exc && exc.name === "AbortError") return;
      error.textContent = String(exc);
      show(error, true);
      previewReady(false);
    });
  }

  form.addEventListener("change", function (ev) {
    var name = ev.target.name;
    if (name === "index") { uncheck('input[name="action"]'); amount.value = ""; }
    if (name === "ctype" || name === "action") amount.value = "";
    if (name === "citation_text" || name === "decision" || name === "cite") return;
    preview();
  });

  var typing = null;
  amount.addEventListener("input", function () {
    clearTimeout(typing);
    typing = setTimeout(preview, 250);
  });

  form.querySelector(".fc-keypad").addEventListener("click", function (ev) {
    var key = ev.target.closest("button");
    if (!key) return;
    var k = key.getAttribute("data-key");
    if (k === "clear") amount.value = "";
    else if (k === "back") amount.value = amount.value.slice(0, -1);
    else if (k === "min") amount.value = limits.min || amount.value;
    else if (k === "max") amount.value = limits.max || amount.value;
    else if (amount.value.length < 9) amount.value = (amount.value === "0" ? "" : amount.value) + k;
    preview();
  });

  form.addEventListener("submit", function (ev) {
    if (apply.disabled) ev.preventDefault();
  });

  previewReady(false);
  layout();
  // A refused apply shows the form as the floor had filled it: its preview again.
  if (checked("ctype")) preview();
})();
