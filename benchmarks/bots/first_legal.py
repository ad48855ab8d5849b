"""The trivial exec: bot of bench_bots.py: answers every request with its first legal action."""
import sys

out = sys.stdout
for line in sys.stdin:
    if line.startswith('{"type":"act"'):
        i = line.index('"legal":["') + 10
        out.write('{"action":"' + line[i:line.index('"', i)] + '"}\n')
        out.flush()
