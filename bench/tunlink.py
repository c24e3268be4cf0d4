#!/usr/bin/env python3
# A delay line between two TUN devices, for the network benchmark (bench/link.mjs) where the
# kernel has no sch_netem. It is Python, not Node, because Node cannot open a TUN device without a
# native addon; it is a benchmark tool only (not shipped, not run by the tests), and uses only
# Python's standard library.
#
#   python3 bench/tunlink.py [--delay-ms 20] [--mbit 50] [--limit 1000] TUN_A TUN_B
#
# Creates TUN_A and TUN_B (IFF_TUN, no packet information), prints "ready" and then forwards
# every IP packet read from one to the other as a link of that rate and one-way delay does: a
# packet starts on the wire when the packets before it in its direction have left (its length at
# the rate: the serialisation time), and comes out the delay after it is on the wire. Each
# direction holds at most --limit packets (queued and on the wire, as netem's own default limit
# of 1000); past that a packet is dropped, as a full router queue drops it. The caller moves the
# devices into network namespaces and gives them addresses. The devices live as long as this
# process: it stops on SIGTERM, SIGINT or when its standard input closes (its parent is gone),
# and prints what it forwarded and dropped, and its CPU time, on stderr.
import argparse
import collections
import fcntl
import os
import select
import signal
import struct
import sys
import time

TUNSETIFF = 0x400454CA
IFF_TUN = 0x0001
IFF_NO_PI = 0x1000


def open_tun(name):
    fd = os.open('/dev/net/tun', os.O_RDWR | os.O_NONBLOCK)
    fcntl.ioctl(fd, TUNSETIFF, struct.pack('16sH', name.encode(), IFF_TUN | IFF_NO_PI))
    return fd


class Direction:
    """One way of the link: packets read from src, written to dst when due."""

    def __init__(self, src, dst, delay, seconds_per_byte, limit):
        self.src, self.dst = src, dst
        self.delay, self.seconds_per_byte, self.limit = delay, seconds_per_byte, limit
        self.queue = collections.deque()
        self.busy_until = 0.0
        self.forwarded = self.dropped = 0

    def take(self, now):
        # Bounded so one busy direction cannot starve the other's deliveries.
        for _ in range(256):
            try:
                packet = os.read(self.src, 65536)
            except BlockingIOError:
                return True
            except OSError:
                # The device is gone (its namespace deleted): the link is over.
                return False
            if len(self.queue) >= self.limit:
                self.dropped += 1
                continue
            self.busy_until = max(now, self.busy_until) + len(packet) * self.seconds_per_byte
            self.queue.append((self.busy_until + self.delay, packet))
        return True

    def release(self, now):
        while self.queue and self.queue[0][0] <= now:
            _, packet = self.queue.popleft()
            try:
                os.write(self.dst, packet)
                self.forwarded += 1
            except OSError:
                # The device's own queue is full or it is down: the packet is lost, as on a wire.
                self.dropped += 1

    def next_due(self):
        return self.queue[0][0] if self.queue else None


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--delay-ms', type=float, default=20)
    p.add_argument('--mbit', type=float, default=50)
    p.add_argument('--limit', type=int, default=1000)
    p.add_argument('a')
    p.add_argument('b')
    args = p.parse_args()
    a, b = open_tun(args.a), open_tun(args.b)
    spb = 8 / (args.mbit * 1e6)
    ways = [Direction(a, b, args.delay_ms / 1000, spb, args.limit), Direction(b, a, args.delay_ms / 1000, spb, args.limit)]
    by_fd = {a: ways[0], b: ways[1]}
    stopping = []
    signal.signal(signal.SIGTERM, lambda *_: stopping.append(1))
    signal.signal(signal.SIGINT, lambda *_: stopping.append(1))
    stdin = sys.stdin.fileno()
    print('ready', flush=True)
    clock = time.monotonic
    while not stopping:
        now = clock()
        dues = [d for d in (w.next_due() for w in ways) if d is not None]
        timeout = max(0.0, min(dues) - now) if dues else 1.0
        try:
            readable, _, _ = select.select([a, b, stdin], [], [], timeout)
        except InterruptedError:
            continue
        now = clock()
        for fd in readable:
            if fd == stdin:
                if not os.read(stdin, 4096):
                    stopping.append(1)
            elif not by_fd[fd].take(now):
                stopping.append(1)
        for w in ways:
            w.release(now)
    print(f'tunlink: {args.a}→{args.b} {ways[0].forwarded} packets, {ways[0].dropped} dropped; '
          f'{args.b}→{args.a} {ways[1].forwarded} packets, {ways[1].dropped} dropped; '
          f'{time.process_time():.1f} s of CPU', file=sys.stderr)


if __name__ == '__main__':
    main()
