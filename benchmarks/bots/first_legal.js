// The trivial exec: bot of bench_bots.py for node: answers every "act" with its first legal action.
const readline = require("readline");
readline.createInterface({ input: process.stdin }).on("line", (line) => {
  const message = JSON.parse(line);
  if (message.type === "act") process.stdout.write(JSON.stringify({ action: message.legal[0] }) + "\n");
});
