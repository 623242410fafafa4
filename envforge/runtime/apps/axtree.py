"""A compact accessibility-tree text of an app page, the text half of the browser environment's observation.

One `page.evaluate` walks the rendered elements in document order. Each interactive one gets a number,
stamped on it as `data-ef-id` so an action can name it, and a line such as `[5] textbox "Email" required`.
Headings, status and alert messages, paragraphs, table columns and a record's `dt: dd` rows give the
context; a picker's radio choices follow a `radiogroup` line, each named by its row's whole label. The numbers are
renewed on every call: an id means the element of the latest text only.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from playwright.sync_api import Page

ELEMENT_ID_ATTRIBUTE = "data-ef-id"

_AXTREE_JS = r"""
() => {
  const ID = "data-ef-id";
  const INTERACTIVE = "a[href], button, input, select, textarea, summary, [role=button], [tabindex]";
  const NATIVE = "a[href], button, input, select, textarea, summary";
  const CAP = 80;
  // A picker's choice is told apart by its key, at the end of its label: never cut it off.
  const CHOICE_CAP = 200;
  const OPTIONS_CAP = 20;
  const clean = (text) => (text || "").replace(/\s+/g, " ").trim();
  const capped = (text, cap = CAP) => (text.length > cap ? text.slice(0, cap - 1) + "…" : text);
  const quoted = (text, cap = CAP) => JSON.stringify(capped(clean(text), cap));
  const shown = (el) =>
    el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) &&
    el.getClientRects().length > 0;

  // What a screen reader would read: skips aria-hidden and unrendered parts, and spaces out block children.
  const textOf = (node) => {
    if (node.nodeType === Node.TEXT_NODE) return node.data;
    if (node.nodeType !== Node.ELEMENT_NODE) return "";
    if (node.getAttribute("aria-hidden") === "true" || !shown(node)) return "";
    const inner = Array.from(node.childNodes, textOf).join("");
    return getComputedStyle(node).display.startsWith("inline") ? inner : ` ${inner} `;
  };

  const nameOf = (el) => {
    const label = el.getAttribute("aria-label");
    if (label) return clean(label);
    const labelledby = el.getAttribute("aria-labelledby");
    if (labelledby) {
      const parts = labelledby.split(/\s+/).map((id) => document.getElementById(id)).filter(Boolean);
      if (parts.length) return clean(parts.map(textOf).join(" "));
    }
    if (el.labels && el.labels.length) return clean(Array.from(el.labels, textOf).join(" "));
    if (el.matches("input[type=submit], input[type=button], input[type=reset]")) return clean(el.value);
    if (el.matches("input, textarea")) return clean(el.placeholder || el.title);
    return clean(textOf(el)) || clean(el.title);
  };

  const roleOf = (el) => {
    const role = el.getAttribute("role");
    if (role) return role;
    const tag = el.tagName.toLowerCase();
    if (tag === "a") return "link";
    if (tag === "button" || tag === "summary") return "button";
    if (tag === "select") return el.multiple ? "listbox" : "combobox";
    if (tag === "textarea") return "textbox";
    if (tag === "input") {
      const type = el.type;
      if (type === "checkbox" || type === "radio") return type;
      if (type === "submit" || type === "button" || type === "reset") return "button";
      return "textbox";
    }
    return "focusable";
  };

  const describe = (el, id) => {
    const role = roleOf(el);
    let line = `[${id}] ${role} ${quoted(nameOf(el), role === "radio" ? CHOICE_CAP : CAP)}`;
    const tag = el.tagName.toLowerCase();
    if (tag === "input" && role === "textbox" && !["text", "search", "email"].includes(el.type)) line += ` type=${el.type}`;
    if ((tag === "input" && role === "textbox") || tag === "textarea") {
      if (el.value) line += ` value=${quoted(el.value)}`;
    }
    if (tag === "select") {
      if (el.value) line += ` value=${quoted(el.value)}`;
      const values = Array.from(el.options, (option) => option.value).filter((value) => value !== "");
      const listed = values.slice(0, OPTIONS_CAP).join("|");
      line += ` options=${listed}${values.length > OPTIONS_CAP ? `|…(${values.length - OPTIONS_CAP} more)` : ""}`;
    }
    if (tag === "summary" && el.parentElement && el.parentElement.tagName === "DETAILS") {
      line += el.parentElement.open ? " expanded" : " collapsed";
    }
    if (el.checked) line += " checked";
    if (el.required || el.getAttribute("aria-required") === "true") line += " required";
    if (el.getAttribute("aria-invalid") === "true") line += " invalid";
    if (el.disabled || el.getAttribute("aria-disabled") === "true") line += " disabled";
    if (el.getAttribute("aria-current") === "page") line += " current";
    // A key link heading a table row: the rest of the row is what tells the records apart.
    const cell = el.closest("th[scope=row]");
    if (cell && cell.parentElement) {
      const rest = Array.from(cell.parentElement.cells)
        .filter((other) => other !== cell)
        .map((other) => capped(clean(textOf(other))) || "—");
      if (rest.length) line += ` (${rest.join(" | ")})`;
    }
    return line;
  };

  for (const el of document.querySelectorAll(`[${ID}]`)) el.removeAttribute(ID);
  const lines = [];
  let next = 1;
  // Context lines inside something already described (a link's heading, an alert's paragraphs) would repeat it.
  let coveredUntil = null;
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  for (let el = walker.currentNode; el; el = walker.nextNode()) {
    if (coveredUntil && !coveredUntil.contains(el)) coveredUntil = null;
    const tabindex = el.getAttribute("tabindex");
    const focusable = el.matches(NATIVE) || tabindex === null || Number(tabindex) >= 0;
    if (el.matches(INTERACTIVE) && focusable && !(el.matches("input") && el.type === "hidden")) {
      if (!shown(el) || el.closest("[inert]")) continue;
      el.setAttribute(ID, String(next));
      lines.push(describe(el, next));
      next += 1;
      if (!coveredUntil) coveredUntil = el;
      continue;
    }
    if (coveredUntil || !shown(el)) continue;
    const tag = el.tagName.toLowerCase();
    const role = el.getAttribute("role");
    if (role === "radiogroup") {
      lines.push(`radiogroup ${quoted(nameOf(el))}`);
    } else if (/^h[1-6]$/.test(tag) || role === "heading") {
      lines.push(`heading ${quoted(textOf(el))}`);
    } else if (role === "status" || role === "alert") {
      lines.push(`${role} ${quoted(textOf(el))}`);
      coveredUntil = el;
    } else if (tag === "dt") {
      const value = el.nextElementSibling && el.nextElementSibling.tagName === "DD" ? textOf(el.nextElementSibling) : "";
      lines.push(`${capped(clean(textOf(el)))}: ${capped(clean(value))}`);
    } else if (tag === "p" && !el.closest("label") && !el.querySelector(INTERACTIVE)) {
      const text = clean(textOf(el));
      if (text) lines.push(`text ${quoted(text)}`);
    } else if (tag === "thead") {
      const columns = Array.from(el.querySelectorAll("th"), (th) => capped(clean(textOf(th))));
      lines.push(`columns: ${columns.join(" | ")}`);
      coveredUntil = el;
    }
  }
  // A visually hidden heading often repeats the visible one right before it.
  return lines.filter((line, index) => line.startsWith("[") || line !== lines[index - 1]).join("\n");
}
"""


def accessibility_text(page: Page) -> str:
    """The page as numbered interactive elements and context lines; stamps `data-ef-id` on the numbered elements."""
    text: str = page.evaluate(_AXTREE_JS)
    return text
