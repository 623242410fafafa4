// Optional enhancement: Escape closes an open bottom sheet. Every flow works without this file.
document.addEventListener("keydown", (event) => {
  if (event.key !== "Escape") return;
  for (const sheet of document.querySelectorAll("details.sheet[open]")) sheet.open = false;
});
