// A simple tricksim bot for node: win the trick as cheaply as it can, otherwise throw its lowest
// card; before the play it takes the first action offered (pass, as a rule).
//
//   tricksim compare sheepshead --a "exec:node examples/bots/simple.js" --b heuristic --hands 2000
//
// It speaks the protocol of docs/bots.md: one JSON message a line on standard input; it answers
// each "act" with one line {"action": "<label>"} and ignores the other types.

const readline = require("readline");

const RANKS = "23456789TJQKA";

// A rough strength: the rank only (trump and the game's own order are the bot's to learn).
function power(card) {
  const rank = RANKS.indexOf(card[0]);
  return rank >= 0 ? rank : 13;
}

function choose(legal, trick) {
  const plays = legal.filter((a) => a.startsWith("play "));
  if (plays.length === 0) return legal[0];
  plays.sort((a, b) => power(a.slice(5)) - power(b.slice(5)));
  const bestSoFar = Math.max(-1, ...trick.map(power));
  const winner = plays.find((a) => power(a.slice(5)) > bestSoFar);
  return trick.length > 0 && winner !== undefined ? winner : plays[0];
}

const input = readline.createInterface({ input: process.stdin });
input.on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "act") {
    process.stdout.write(JSON.stringify({ action: choose(message.legal, message.current_trick) }) + "\n");
  }
});
