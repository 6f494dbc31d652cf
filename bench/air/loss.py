# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Packet loss models and exact probabilities of "these packets all arrived".

Two models, each a Markov chain over link states with a loss probability
per state, and the packets of a unit sent back to back from the chain's
stationary distribution:

* Bernoulli(p): one state, every packet lost independently with p.
* Gilbert-Elliott(p, burst): a good state that loses nothing and a bad
  state that loses everything (Gilbert's model), leaving the bad state with
  probability 1/burst per packet (bursts of mean length `burst`) and
  entering it with the probability that makes the long-run loss rate p.

all_received() is exact: a forward pass over the unit's packets that
multiplies in the arrival probability at each packet of the set. Monte
Carlo is here only to check it (selftests/bench/test_air_model.py).
"""


class Chain:
    """Link states: start distribution, loss per state, transitions."""

    def __init__(self, name, start, loss, trans):
        self.name = name
        self.start = start          # list: P(state) at a unit's first packet
        self.loss = loss            # list: P(packet lost | state)
        self.trans = trans          # trans[s][t] = P(next state t | state s)

    def step(self, v):
        n = len(v)
        return [sum(v[s] * self.trans[s][t] for s in range(n)) for t in range(n)]


def bernoulli(p):
    return Chain("Bernoulli %g%%" % (100 * p), [1.0], [p], [[1.0]])


def gilbert_elliott(p, burst=3.0):
    """Loss rate p in bursts of mean length `burst` packets."""
    leave = 1.0 / burst
    enter = p * leave / (1.0 - p)
    if not 0 <= enter <= 1:
        raise ValueError("no Gilbert chain with loss %g and burst %g" % (p, burst))
    return Chain("Gilbert-Elliott %g%%, burst %g" % (100 * p, burst),
                 [1.0 - p, p], [0.0, 1.0],
                 [[1.0 - enter, enter], [leave, 1.0 - leave]])


def all_received(chain, n_packets, need):
    """P(every packet index in `need` arrives) among n_packets sent in a row."""
    v = list(chain.start)
    last = max(need) if need else -1
    for i in range(last + 1):
        if i in need:
            v = [v[s] * (1.0 - chain.loss[s]) for s in range(len(v))]
        if i < last:
            v = chain.step(v)
    return sum(v)


def any_event(chain, n_packets, events, cache=None):
    """P(at least one event happens), an event being "all of this set
    arrived": inclusion-exclusion over the events (at most a handful)."""
    events = [frozenset(e) for e in events]
    total = 0.0
    k = len(events)
    for mask in range(1, 1 << k):
        union = frozenset().union(*(events[i] for i in range(k) if mask >> i & 1))
        if cache is not None and union in cache:
            pr = cache[union]
        else:
            pr = all_received(chain, n_packets, union)
            if cache is not None:
                cache[union] = pr
        total += pr if bin(mask).count("1") % 2 else -pr
    return total


def sample(chain, n, rng, state=None):
    """n arrivals (True = arrived) and the state after them; a seeded rng."""
    if state is None:
        state = 0 if len(chain.start) == 1 or rng.random() < chain.start[0] else 1
    out = []
    for _ in range(n):
        out.append(rng.random() >= chain.loss[state])
        if len(chain.trans) > 1:
            state = 0 if rng.random() < chain.trans[state][0] else 1
    return out, state
