#!/usr/bin/env python3
"""An out-of-process bot for tysiac (``--bots cmd:examples/bots/json_bot.py``): it reads
one JSON object per line on standard input and answers each ``choose`` with one line
``{"index": N}``.  It uses nothing of tysiac: any language that reads and writes lines
of JSON can do the same (the protocol: ``tysiac_spec/bots/process.py``).

It plays a random legal action from its seat's seed, but never bids when it may pass, and
prints a debug line before each answer (a line that is not a JSON object is skipped by
tysiac, as an UCI engine's ``info`` line is).
"""

import json
import random
import sys


def main() -> None:
    rng = random.Random(0)
    for line in sys.stdin:
        message = json.loads(line)
        if message["type"] == "start":
            rng = random.Random(message["seed"])
        elif message["type"] == "choose":
            legal = message["legal"]
            passes = [i for i, text in enumerate(legal) if text == "pass"]
            index = passes[0] if passes else rng.randrange(len(legal))
            print(f"debug: seat {message['seat']} has {len(message['view']['hand'])} cards")
            print(json.dumps({"index": index}), flush=True)
        elif message["type"] == "quit":
            return


if __name__ == "__main__":
    main()
