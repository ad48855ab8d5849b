"""A test bot over the JSON-lines protocol that plays a random legal action and misbehaves on
demand: ``faulty.py MODE [AT] [LOG]``. MODE is ``good``, ``exit``, ``hang``, ``garbage``,
``illegal``, or ``hang`` or ``silent`` (never answer, never exit); the fault comes at the request numbered AT
(from 0, default 0); LOG, if given, gets every message and answer as a JSON line, and the file
LOG.pid this process's id."""

import json
import os
import random
import sys
import time


def main():
    mode = sys.argv[1]
    at = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    log = open(sys.argv[3], "a") if len(sys.argv) > 3 else None
    if log:
        with open(sys.argv[3] + ".pid", "a") as f:
            f.write(f"{os.getpid()}\n")
    fail_at = int(os.environ.get("FAULTY_BOT_FAIL_AT", at))
    requests = 0
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] != "act":
            if log:
                log.write(json.dumps({"message": message}) + "\n")
            continue
        rng = random.Random(line)
        answer = rng.choice(message["legal"])
        if requests >= fail_at and mode != "good":
            if mode == "exit":
                sys.exit(3)
            if mode in ("hang", "silent"):
                time.sleep(3600)
            if mode == "garbage":
                answer = None
                sys.stdout.write("this is not json\n")
            if mode == "illegal":
                answer = next(a for a in ("play 2C", "play QC", "pick") if a not in message["legal"])
        if log:
            log.write(json.dumps({"message": message, "answer": answer}) + "\n")
            log.flush()
        if answer is not None:
            sys.stdout.write(json.dumps({"action": answer}) + "\n")
        sys.stdout.flush()
        requests += 1


if __name__ == "__main__":
    main()
