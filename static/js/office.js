// The office's player search (issue 28): the box suggests known players as one types (name, nickname,
// card number, #ID) from /office/players/search.json, into the box's <datalist>.
const box = document.querySelector("input[data-suggest-url]");
if (box) {
  const list = document.getElementById(box.getAttribute("list"));
  let timer = null;
  let asked = "";
  box.addEventListener("input", () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const q = box.value.trim();
      if (!q || q === asked) return;
      asked = q;
      const response = await fetch(`${box.dataset.suggestUrl}?q=${encodeURIComponent(q)}`, { credentials: "same-origin" });
      if (!response.ok || box.value.trim() !== q) return;
      const { players } = await response.json();
      list.replaceChildren(...players.map((p) => {
        const option = document.createElement("option");
        option.value = p.name;
        option.label = [p.nickname, p.card_number, `#${p.id}`].filter(Boolean).join(" · ");
        return option;
      }));
    }, 200);
  });
}
