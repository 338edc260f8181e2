// The yaku picker of the hand-entry form (templates/scoring/manage/_yaku_picker.html): tapping yaku fills
// the han (yaku plus dora), the fu where the yaku fix it (seven pairs 25; pinfu 20 on a tsumo, 30 on a
// ron) or the yakuman count. A help only: the server checks the picks again (scoring/yaku_picker.py) and
// the organiser can still type han and fu. A file of its own because the site's CSP forbids inline
// scripts; the words come from the picker's data-text-* attributes, so they are translated.
(function () {
  "use strict";

  function fill(template, values) {
    return template.replace(/\{(\w+)\}/g, function (_, key) {
      return String(values[key]);
    });
  }

  function number(input) {
    if (!input || input.value.trim() === "") {
      return 0;
    }
    var value = parseInt(input.value, 10);
    return Number.isFinite(value) && value > 0 ? value : 0;
  }

  function setSelect(select, value) {
    if (!select) {
      return false;
    }
    var text = value === null ? "" : String(value);
    var exists = Array.prototype.some.call(select.options, function (option) {
      return option.value === text;
    });
    if (!exists || select.value === text) {
      return false;
    }
    select.value = text;
    return true;
  }

  function setUp(picker) {
    var form = picker.closest("form");
    if (!form) {
      return;
    }
    var boxes = Array.prototype.slice.call(picker.querySelectorAll("input[name=yaku]"));
    var byName = {};
    boxes.forEach(function (box) {
      byName[box.value] = box;
    });
    var openHand = form.elements.open_hand;
    var total = picker.querySelector("[data-yaku-total]");
    var stacking = picker.dataset.stacking === "1";

    function isYakuman(box) {
      return parseInt(box.dataset.yakuman || "0", 10) > 0;
    }

    function tsumo() {
      var checked = form.querySelector("input[name=result]:checked");
      return checked !== null && checked.value === "tsumo";
    }

    function picked() {
      return boxes.filter(function (box) {
        return box.checked && !box.disabled;
      });
    }

    // Which boxes can be tapped: a yakuman replaces every other yaku; an open hand has no closed-only
    // yaku. Disabled boxes are not sent, so the server sees what the page shows.
    function settle(changed) {
      var closed = !(openHand && openHand.checked);
      if (changed && changed.checked && (changed.value === "riichi" || changed.value === "double_riichi")) {
        var other = byName[changed.value === "riichi" ? "double_riichi" : "riichi"];
        if (other) {
          other.checked = false;
        }
      }
      var yakuman = boxes.some(function (box) {
        return box.checked && isYakuman(box);
      });
      boxes.forEach(function (box) {
        box.disabled = (!closed && box.dataset.closedOnly === "1") || (yakuman && !isYakuman(box));
      });
      // A closed hand won by tsumo always holds menzen tsumo; a ron or an open hand never does.
      var menzen = byName.menzen_tsumo;
      if (menzen) {
        var others = picked().some(function (box) {
          return box !== menzen && !isYakuman(box);
        });
        if (!tsumo() || !closed) {
          menzen.checked = false;
        } else if (others) {
          menzen.checked = true;
        }
      }
    }

    function compute() {
      var closed = !(openHand && openHand.checked);
      var chosen = picked();
      if (chosen.length === 0) {
        return null;
      }
      var big = chosen.filter(isYakuman);
      if (big.length) {
        var count = big.reduce(function (sum, box) {
          return sum + parseInt(box.dataset.yakuman, 10);
        }, 0);
        return { yakuman: stacking ? count : 1 };
      }
      var han = chosen.reduce(function (sum, box) {
        var open = parseInt(box.dataset.hanOpen || "0", 10);
        var shut = parseInt(box.dataset.hanClosed || "0", 10);
        return sum + (closed || !open ? shut : open);
      }, 0);
      han += number(form.elements.dora_count) + number(form.elements.aka_count) + number(form.elements.ura_count);
      var names = chosen.map(function (box) {
        return box.value;
      });
      var fu = null;
      if (han < 5 && names.indexOf("chiitoitsu") >= 0) {
        fu = 25;
      } else if (han < 5 && names.indexOf("pinfu") >= 0) {
        fu = tsumo() ? 20 : 30;
      }
      return { han: han, fu: fu };
    }

    function show(value) {
      if (!total) {
        return;
      }
      if (value === null) {
        total.textContent = "";
      } else if (value.yakuman) {
        total.textContent = fill(picker.dataset.textYakuman, { count: value.yakuman });
      } else if (value.fu) {
        total.textContent = fill(picker.dataset.textFu, value);
      } else {
        total.textContent = fill(picker.dataset.textHan, value);
      }
    }

    // Write the value into the han, fu and yakuman fields, then tell the form they changed (the payment
    // preview listens for "change").
    function apply(value) {
      var han = form.elements.han;
      var fu = form.elements.fu;
      var yakuman = form.elements.yakuman;
      var moved = false;
      if (value.yakuman) {
        moved = setSelect(yakuman, Math.min(value.yakuman, 3)) || moved;
        moved = setSelect(han, null) || moved;
        moved = setSelect(fu, null) || moved;
      } else {
        moved = setSelect(yakuman, null) || moved;
        moved = setSelect(han, Math.min(value.han, 13)) || moved; // the list's 13 means 13 or more
        if (value.han >= 5) {
          moved = setSelect(fu, null) || moved;
        } else if (value.fu) {
          moved = setSelect(fu, value.fu) || moved;
        }
      }
      if (moved && han) {
        han.dispatchEvent(new Event("change", { bubbles: true }));
      }
    }

    function update(event) {
      var target = event ? event.target : null;
      var name = target ? target.name : "";
      var relevant = ["yaku", "open_hand", "dora_count", "aka_count", "ura_count", "result"];
      if (event && relevant.indexOf(name) < 0) {
        return; // han, fu and the rest are the organiser's: never overwritten on their own change
      }
      settle(name === "yaku" ? target : null);
      var value = compute();
      show(value);
      if (event && value !== null) {
        apply(value);
      }
    }

    form.addEventListener("change", update);
    form.addEventListener("input", function (event) {
      if (event.target && /_count$/.test(event.target.name || "")) {
        update(event);
      }
    });
    update(null); // the page as loaded (a correction shows its stored yaku): states only, values kept
  }

  Array.prototype.forEach.call(document.querySelectorAll("[data-yaku-picker]"), setUp);
})();
