// A wide table that a phone shows row by row instead of scrolling it sideways: each cell carries
// its column's heading (data-label), which games.css writes above the value on a narrow screen.
// On a wide screen the table is unchanged.
export function stackOnPhone(table) {
  const heads = [...table.querySelectorAll("thead th")].map((th) => th.textContent.trim());
  for (const row of table.querySelectorAll("tbody tr")) {
    [...row.children].forEach((cell, i) => {
      if (cell.tagName === "TD" && heads[i] && !cell.hasAttribute("colspan")) cell.dataset.label = heads[i];
    });
  }
  table.classList.add("stack-on-phone");
  return table;
}
