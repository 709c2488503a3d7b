// The dealer tablet's entry point (templates/tables/dealer.html): the code is
// split by screen part under ./dealer/, wired by ./dealer/main.js.
import "./dealer/main.js";
