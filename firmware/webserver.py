"""The web app served by waitress, set up for a table on open Wi-Fi.

waitress reads every request on one thread and hands only complete ones to the workers, so
idle or slow sockets cost no worker; what they can exhaust is the connection limit. So:

- at most `per_address` connections from one address: a new one closes that address's
  oldest idle connection (an address holding that many is one guest's flood, not a phone);
- guests (addresses with no signed-in or paired phone) share all but `reserved`: past that a
  guest's new connection closes one of the address holding most (idle, else one whose answer
  sits unread, else the oldest), so a flood of busy sockets never shuts a newcomer out; from
  an address at the top itself, an idle one of its own, else itself, so a flood's
  reconnections close only its own; a connection that has had no time to send its first
  request (`fresh_seconds`) is never closed for another address's;
- a request must arrive whole within `request_seconds` of its first byte (a header line
  every few seconds no longer holds a connection for ever), and an idle keep-alive
  connection closes after `idle_seconds`;
- headers and bodies over their limits are refused from the request line and headers alone,
  before any body is read, so nothing is spooled to disk;
- live streams are capped in total and per address, leaving worker threads for everything
  else, a third of them kept for signed-in and paired phones; a stream ends within a second
  of its phone leaving (waitress keeps reading a connection while its request runs, so it
  sees the close);
- a worker writing to a phone that does not read waits (up to `stall_seconds`), so workers
  are shared out like connections: at most `requests_per_address` at once for one address, and
  for guests what the streams leave less `known_threads`; a request past its address's or the
  guests' share waits for one to end, the address holding fewest first (`Workers`), a live
  stream's until it opens; a newcomer's request is given the worker of a guest's connection
  whose unread answer has kept it waiting over `blocked_seconds` (that connection is closed);
  waitress's warning that requests wait for a worker is said once a minute, with a count.
"""

from __future__ import annotations

import errno
import json
import logging
import socket
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

from waitress import wasyncore
from waitress.adjustments import Adjustments
from waitress.channel import HTTPChannel
from waitress.server import MultiSocketServer, TcpWSGIServer
from waitress.task import ErrorTask, ThreadedTaskDispatcher, WSGITask

from companion.errors import ParlourError

log = logging.getLogger("parlour.web")
STREAM_OPENED = "parlour.stream_opened"   # in a request's environ: web/api.py calls it once
#                                           its live stream is open (`Workers.streaming`)
EVERY_ADDRESS = ("", "0.0.0.0", "::", "[::]")   # a host that means every address, both families


def ipv6_here() -> bool:
    """Whether this machine has IPv6 at all (a kernel booted with ipv6.disable=1 has none)."""
    if not socket.has_ipv6:
        return False
    try:
        socket.socket(socket.AF_INET6, socket.SOCK_STREAM).close()
    except OSError:
        return False
    return True


def listen_hosts(host: str) -> tuple[str, ...]:
    """The addresses a table on `host` listens on: every address is IPv4's and, where the
    machine has IPv6, IPv6's too (waitress makes an IPv6 socket IPv6-only, so "0.0.0.0" alone
    left `http://[::1]:8080/` refused, and "::" alone IPv4); any other host is itself."""
    if host in EVERY_ADDRESS:
        return ("0.0.0.0", "::") if ipv6_here() else ("0.0.0.0",)
    return (host,)


@dataclass(frozen=True)
class Limits:
    """The numbers, each with the reason in README.md (Reliability)."""

    connections: int = 200          # all sockets; file descriptors stay far below 1,024
    reserved: int = 64              # of those, kept for addresses of signed-in and paired phones
    per_address: int = 16           # a phone opens at most ~7 (6 fetches + its live stream)
    idle_seconds: int = 20          # an idle keep-alive connection closes (browsers reopen)
    request_seconds: float = 10.0   # first byte to whole request (16 KiB on Wi-Fi: ms)
    header_bytes: int = 16 * 1024   # request line + headers; a phone sends under 2 KiB
    body_bytes: int = 32 * 1024     # above Flask's 16 KiB, far below inbuf_overflow (512 KiB)
    cleanup_seconds: int = 2        # how often the two timeouts are checked
    reserved_threads: int = 8       # workers no live stream may take
    streams_per_address: int = 4    # live pages one address may hold open
    output_bytes: int = 256 * 1024  # unsent output a connection may hold before its writer waits
    send_buffer: int = 128 * 1024   # the kernel's send buffer per connection (not 4 MiB each)
    stall_seconds: float = 10.0     # a connection with that much unsent and none sent is dropped
    requests_per_address: int = 8   # workers one address may hold for requests (a phone: 6)
    known_threads: int = 4          # workers guests' requests never take: signed-in phones'
    blocked_seconds: float = 1.0    # a guest's worker blocked on an unread answer this long is
    #                                 freed for a newcomer's request (its connection dropped)
    fresh_seconds: float = 2.0      # a new connection's time to send its first request before
    #                                 it is closed like an idle one to make room for another

    def streams(self, threads: int) -> int:
        """Live streams allowed with `threads` workers: the rest are reserved for requests."""
        return max(1, threads - max(self.reserved_threads, threads // 4))

    def known_streams(self, threads: int) -> int:
        """Of those, the ones only signed-in and paired phones may take: a third (guests from
        9 addresses took all 36, and the players' pages fell back to polling)."""
        return self.streams(threads) // 3

    def adjustments(self) -> dict:
        return {"connection_limit": self.connections, "channel_timeout": self.idle_seconds,
                "cleanup_interval": self.cleanup_seconds,
                "max_request_header_size": self.header_bytes,
                "max_request_body_size": self.body_bytes,
                "channel_request_lookahead": 1,     # see a client close during its request
                "asyncore_use_poll": True,          # select() fails past descriptor 1,024
                # a phone that does not read: its writer waits at output_bytes, in memory (a
                # buffer spools to disk only past outbuf_overflow, which it never reaches)
                "outbuf_high_watermark": self.output_bytes,
                "outbuf_overflow": 16 * self.output_bytes,
                # no proxy is trusted, so proxy headers are dropped (waitress 2 asks to say so)
                "clear_untrusted_proxy_headers": True}


class JsonErrorTask(ErrorTask):
    """waitress's own refusals (a body or headers too big, a request it cannot parse) as the
    table's JSON error, like every other 4xx it answers, not waitress's plain text."""

    def execute(self):
        error = self.request.error
        body = json.dumps({"error": f"{error.reason}: {error.body}"}).encode()
        self.status = f"{error.code} {error.reason}"
        self.response_headers.append(("Content-Type", "application/json"))
        self.set_close_on_finish()
        self.content_length = len(body)
        self.write(body)


class QueueWarnings:
    """waitress's "Task queue depth" warning (a request ready and no worker free) at most once
    every `every` seconds, saying how many more there were meanwhile and the deepest (a
    flood's made ~1,000 lines a second). Stands in for the dispatcher's `queue_logger`."""

    def __init__(self, logger: logging.Logger, every: float = 60.0,
                 clock: Callable[[], float] = time.monotonic):
        self.logger, self.every, self.clock = logger, every, clock
        self.lock = threading.Lock()
        self.next = float("-inf")
        self.held = self.deepest = 0

    def warning(self, message: str, depth: int, *args) -> None:
        with self.lock:
            now = self.clock()
            if now < self.next:
                self.held += 1
                self.deepest = max(self.deepest, depth)
                return
            held, deepest = self.held, max(self.deepest, depth)
            self.next, self.held, self.deepest = now + self.every, 0, 0
        if held:
            self.logger.warning(message + " (%d more times since the last such warning, "
                                "up to %d)", depth, *args, held, deepest)
        else:
            self.logger.warning(message, depth, *args)


class TableDispatcher(ThreadedTaskDispatcher):
    """waitress's workers, warning of their queue's depth at most once a minute."""

    def __init__(self):
        super().__init__()
        self.queue_logger = QueueWarnings(ThreadedTaskDispatcher.queue_logger)


class TableTask(WSGITask):
    """waitress's task for a request, its environ carrying `STREAM_OPENED`: the app calls it
    once the request has become a live stream (`Workers.streaming`)."""

    def get_environment(self):
        environ = super().get_environment()
        channel = self.channel
        environ[STREAM_OPENED] = lambda: channel.server.workers.streaming(channel)
        return environ


class Workers:
    """Who holds the worker threads besides the open live streams (capped by the app): a
    channel's request (a stream's too, until it opens) runs at once if its address holds
    fewer than `requests_per_address` and, for a guest (an address with no signed-in or
    paired phone), if guests hold fewer than the workers streams leave less `known_threads`;
    else it waits its turn. One for all of a server's listening sockets (they share the
    workers)."""

    def __init__(self, limits: Limits, threads: int, known: Callable[[str], bool]):
        self.per_address = limits.requests_per_address
        self.output_bytes, self.blocked_seconds = limits.output_bytes, limits.blocked_seconds
        self.for_guests = max(1, threads - limits.streams(threads) - limits.known_threads)
        self.known = known
        self.lock = threading.Lock()
        self.held: dict[str, int] = {}
        self.guests = 0
        self.waiting: deque = deque()
        self.guest_held: dict = {}     # connections holding guests' workers: how many
        self.owed: dict = {}           # a newcomer's waiting connection: the one closed for it

    def add(self, channel, start: Callable) -> None:
        """Start the channel's next request now (`start(channel)`) or when its turn comes."""
        with self.lock:
            if not self._take(channel):
                blocked = self._blocked_for(channel)
                self.waiting.append((channel, start))
                if blocked is not None:     # closed by the loop: its worker goes free
                    blocked.server.trigger.pull_trigger(
                        lambda: blocked.handle_close() if blocked.connected else None)
                return
        start(channel)

    def make_way(self) -> list:
        """The connections to close now (by the loop) for newcomers' requests still waiting
        (their guests' workers were not yet blocked long enough when they came)."""
        with self.lock:
            return [b for b in (self._blocked_for(c) for c, _ in list(self.waiting))
                    if b is not None]

    def _blocked_for(self, channel):
        """For a newcomer's request (a guest's address holding no worker and waiting with
        nothing else) kept waiting by the guests' share: the guests' connection whose worker
        has waited longest on a full buffer its phone takes nothing of, if that is over
        `blocked_seconds`; the newcomer is then owed the worker (a flood's pipelined requests
        that are never read held every guests' worker until the stall check: 10-20 s)."""
        address = _address(channel)
        if channel in self.owed or self.known(address) or self.held.get(address) or sum(
                _address(w[0]) == address for w in self.waiting) > (
                channel in (w[0] for w in self.waiting)):
            return None
        since = time.time() - self.blocked_seconds
        taken = set(self.owed.values())
        blocked = [c for c in self.guest_held if c.connected and c.last_sent and c not in taken
                   and c.total_outbufs_len >= self.output_bytes and c.last_sent < since]
        victim = min(blocked, key=lambda c: c.last_sent, default=None)
        if victim is not None:
            self.owed[channel] = victim
        return victim

    def done(self, channel) -> None:
        """The channel's request has ended: its worker is free, and waiting ones that may run
        now start."""
        with self.lock:
            self._release(channel.held.popleft() if channel.held else None, channel)
            ready = self._ready()
        for waiting, start in ready:
            start(waiting)

    def streaming(self, channel) -> None:
        """The channel's running request is now a live stream: its worker is counted by the
        streams' caps (the app's), no longer in its address's and the guests' shares, and
        waiting ones that may run now start."""
        with self.lock:
            if not channel.held or channel.held[0] is None:
                return
            self._release(channel.held[0], channel)
            channel.held[0] = None
            ready = self._ready()
        for waiting, start in ready:
            start(waiting)

    def _release(self, held, channel) -> None:
        """Count no longer what one of the channel's requests held (`_take`)."""
        if held is None:
            return
        address, guest = held
        self.held[address] -= 1
        if not self.held[address]:
            del self.held[address]
        self.guests -= guest
        if guest:
            self.guest_held[channel] -= 1
            if not self.guest_held[channel]:
                del self.guest_held[channel]

    def _ready(self) -> list:
        """The waiting requests that may run now, counted as held and taken off the line."""
        ready = []
        self.waiting = deque(w for w in self.waiting if w[0].connected)  # closed: gone
        self.owed = {c: v for c, v in self.owed.items() if c.connected}
        asking: dict[str, int] = {}
        for waiting, _ in self.waiting:
            asking[_address(waiting)] = asking.get(_address(waiting), 0) + 1
        while self.waiting:
            # a newcomer owed a worker first, then the address holding the fewest (a
            # watcher's request before a flood's next), then the one waiting with fewest,
            # else in the order they came; a signed-in phone's passes guests' held back
            # by their share
            order = sorted(range(len(self.waiting)), key=lambda i: (
                self.waiting[i][0] not in self.owed,
                self.held.get(_address(self.waiting[i][0]), 0),
                asking[_address(self.waiting[i][0])]))
            taken = next((i for i in order if self._take(self.waiting[i][0])), None)
            if taken is None:
                break
            ready.append(self.waiting[taken])
            asking[_address(self.waiting[taken][0])] -= 1
            self.owed.pop(self.waiting[taken][0], None)
            del self.waiting[taken]
        return ready

    def _take(self, channel) -> bool:
        """Count the channel's next request as held, if it may run now (a live stream's too,
        until it opens: past the streams' caps each is answered 503 by a worker like any
        other request's, and a flood's, never read, held every worker)."""
        address = _address(channel)
        guest = not self.known(address)
        if self.held.get(address, 0) >= self.per_address or (
                guest and self.guests >= self.for_guests):
            return False
        self.held[address] = self.held.get(address, 0) + 1
        self.guests += guest
        if guest:
            self.guest_held[channel] = self.guest_held.get(channel, 0) + 1
        channel.held.append((address, guest))
        return True


def _address(channel) -> str:
    return channel.addr[0] if channel.addr else ""


def _first_to_go(channel, fresh_after: float) -> tuple:
    """The order connections make room in: idle ones (the longest idle first), then those
    holding an answer not yet taken (the longest untaken first), then those opened after
    `fresh_after` and not yet answered (they may not have had time to send their request: the
    newest first), then the rest (the oldest first)."""
    if not channel.requests and not channel.total_outbufs_len:
        if channel.last_sent or channel.opened <= fresh_after:
            return 0, channel.last_activity
        return 2, -channel.opened
    if channel.total_outbufs_len:
        return 1, channel.last_sent or channel.opened
    return 3, channel.opened


class TableChannel(HTTPChannel):
    """A connection that remembers when its current request began, and makes room for
    itself when its address, or the guests together, hold all they may (`_make_room`)."""

    request_began = 0.0
    last_sent = 0.0          # when output last left for the phone (0: nothing waited yet)
    task_class = TableTask
    error_task_class = JsonErrorTask

    def __init__(self, server, sock, addr, adj, map=None):
        super().__init__(server, sock, addr, adj, map)
        self.held: deque = deque()   # what its requests hold, oldest first (`Workers`)
        self.opened = time.time()
        others = [c for c in server.channels() if c is not self and not c.will_close]
        peers = [c for c in others if c.addr and addr and c.addr[0] == addr[0]]
        if len(peers) >= server.limits.per_address:
            self._make_room(peers)
        known = server.known
        guests = [c for c in others if not (c.addr and known(c.addr[0]))]
        if not self.will_close and not (addr and known(addr[0])) and \
                len(guests) >= server.limits.connections - server.limits.reserved:
            self._make_room(guests, len(peers))   # the reserve stays for the table's phones

    def _make_room(self, crowd: list, mine: int | None = None) -> None:
        """Close one connection of `crowd` for this new one, else this one. Among the guests'
        (`mine`: how many this address holds), one of the address holding most, in
        `_first_to_go`'s order, if that is more than this address would then hold. Else (and
        among its own address's, `mine` None) only an idle one: of its own address's, or if
        it holds none, a guest's that has had time to send its request. So a flood's
        reconnections close the flood's own, never a newcomer's whose request is on its way
        (they closed "the oldest idle guest connection", and that was the newcomer's)."""
        fresh_after = time.time() - self.server.limits.fresh_seconds
        held: dict[str, list] = {}
        for channel in crowd:
            held.setdefault(_address(channel), []).append(channel)
        own = held.pop(_address(self), [])
        most = max(map(len, held.values()), default=0)
        if mine is not None and most > mine + 1:
            victim = min((c for others in held.values() if len(others) == most for c in others),
                         key=lambda c: _first_to_go(c, fresh_after))
        else:
            idle = [c for c in own if not c.requests and not c.total_outbufs_len] if own else [
                c for c in crowd if _first_to_go(c, fresh_after)[0] == 0]
            victim = min(idle, key=lambda c: c.last_activity) if idle else self
        if victim is self or not (victim.requests or victim.total_outbufs_len):
            victim.will_close = True         # closed by the loop once it may write (at once)
        else:
            victim.handle_close()            # its blocked writer or waiting request ends now

    def received(self, data):
        if self.request is None and data:
            self.request_began = time.time()
        return super().received(data)

    def _flush_some(self, *args, **kwargs):
        sent = super()._flush_some(*args, **kwargs)
        if sent or not self.total_outbufs_len:
            self.last_sent = time.time()
        return sent

    def service(self):
        """One request on a worker (waitress's), then that worker counted free (`Workers`);
        none if the phone left while it waited its turn (its requests were dropped)."""
        try:
            if self.requests:
                super().service()
        finally:
            self.server.workers.done(self)


class TableServer(TcpWSGIServer):
    """waitress's TCP server with TableChannel and the whole-request deadline."""

    channel_class = TableChannel
    limits = Limits()
    known: Callable[[str], bool] = staticmethod(lambda address: False)   # a phone we know
    workers: Workers

    def add_task(self, task):
        """A channel's next request: to a worker when its turn comes (`Workers`)."""
        self.workers.add(task, super().add_task)

    def channels(self) -> list:
        """The connections of every listening socket of this server (IPv4's and IPv6's share
        one map), so an address's share and the guests' are counted over all of them."""
        return [c for c in list(self._map.values()) if isinstance(c, TableChannel)]

    def maintenance(self, now):
        super().maintenance(now)                      # idle keep-alive connections
        for blocked in self.workers.make_way():
            blocked.handle_close()                    # its worker goes to a newcomer
        cutoff = now - self.limits.request_seconds
        stalled = now - self.limits.stall_seconds
        for channel in list(self.active_channels.values()):
            if channel.request is not None and not channel.requests \
                    and channel.request_began < cutoff:
                channel.will_close = True             # a request trickling in
            elif channel.total_outbufs_len >= self.limits.output_bytes and \
                    channel.last_sent and channel.last_sent < stalled:
                log.warning("dropped %s: %d bytes unread for %.0f s", channel.addr,
                            channel.total_outbufs_len, now - channel.last_sent)
                channel.handle_close()                # a reader that does not read


class TableServers(MultiSocketServer):
    """Several listening sockets on one port (IPv4's and IPv6's) run by one loop, as one
    server: its port, the trigger that wakes the loop, and `accepting` for all of them."""

    def __init__(self, servers: list, sockets: dict, adj, dispatcher):
        super().__init__(sockets, adj, [(s.effective_host, s.effective_port) for s in servers],
                         dispatcher, servers[-1].log_info)
        self.servers = servers
        self.trigger = servers[0].trigger          # all of them share the loop and its map
        self.effective_host = servers[0].effective_host
        self.effective_port = servers[0].effective_port

    @property
    def accepting(self) -> bool:
        return any(server.accepting for server in self.servers)

    @accepting.setter
    def accepting(self, on: bool) -> None:
        for server in self.servers:
            server.accepting = on


def _on_port(info: tuple, port: int) -> tuple:
    """A listening address (waitress's sockinfo) moved to `port`."""
    family, socktype, proto, address = info
    return family, socktype, proto, (address[0], port, *address[2:])


def table_server(app, *, host: str, port: int, threads: int, limits: Limits,
                 known: Callable[[str], bool] | None = None):
    """waitress.create_server's work, with TableServer on every listening address: those of
    `listen_hosts(host)`, all on one port (port 0: the one the first was given). An address
    after the first that this machine cannot listen on (IPv6 switched off) is left out;
    one in use is a port in use."""
    hosts = listen_hosts(host)
    try:
        adj = Adjustments(host=hosts[0], port=port, threads=threads, ident="parlour",
                          **limits.adjustments())
    except ValueError as err:          # a host name that does not resolve, a port out of range
        raise ParlourError(f"cannot listen on {host}:{port} ({err})") from None
    more = []                          # waitress's sockinfo: family, type, proto, address
    for extra in hosts[1:]:
        try:
            more += [info[:3] + (info[4],) for info in socket.getaddrinfo(
                extra, port, 0, socket.SOCK_STREAM, socket.IPPROTO_TCP, socket.AI_PASSIVE)]
        except OSError as err:
            log.info("not listening on %s (%s)", extra, err)
    # set on the listening socket, so every accepted one has it (Linux inherits it)
    adj.socket_options = [(socket.SOL_TCP, socket.TCP_NODELAY, 1),            # waitress's own
                          (socket.SOL_SOCKET, socket.SO_SNDBUF, limits.send_buffer)]
    dispatcher = TableDispatcher()
    dispatcher.set_thread_count(adj.threads)
    sockets: dict = {}
    servers = []
    known = known or TableServer.known
    workers = Workers(limits, adj.threads, known)
    try:
        for n, info in enumerate([*adj.listen, *more]):
            if servers:
                info = _on_port(info, int(servers[0].effective_port))   # "8080"
            before = set(sockets)
            try:
                server = TableServer(app, sockets, dispatcher=dispatcher, adj=adj,
                                     sockinfo=info)
            except OSError as err:
                if n < len(adj.listen) or err.errno == errno.EADDRINUSE:
                    raise
                for channel in [sockets[fd] for fd in set(sockets) - before]:
                    channel.close()                   # its trigger and socket, half made
                log.info("not listening on %s (%s)", info[3][0], err.strerror or err)
                continue
            server.limits, server.known, server.workers = limits, known, workers
            servers.append(server)
    except OSError:                    # a port in use: nothing of the attempt stays open
        wasyncore.close_all(sockets)
        dispatcher.shutdown(timeout=1)
        raise
    if len(servers) == 1:
        return servers[0]
    return TableServers(servers, sockets, adj, dispatcher)


def can_listen(host: str, port: int) -> None:
    """OSError unless `host` can listen on `port` now (as waitress will), on each of its
    `listen_hosts` (every address: IPv4's and IPv6's, as the table takes both; an address
    after the first counts only when it is in use, as `table_server` leaves out one it cannot
    have)."""
    for n, one in enumerate(listen_hosts(host)):
        one = one[1:-1] if one.startswith("[") and one.endswith("]") else one   # "[::1]"
        family = socket.AF_INET6 if ":" in one else socket.AF_INET
        with socket.socket(family, socket.SOCK_STREAM) as probe:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)       # as waitress
            if family == socket.AF_INET6:
                probe.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)   # as waitress
            try:
                probe.bind((one, port))
                probe.listen()
            except OSError as err:
                if n == 0 or err.errno == errno.EADDRINUSE:
                    raise


def free_port_after(host: str, port: int, tries: int = 50) -> int | None:
    """The first port after `port` that `host` can listen on now (for a message that
    suggests one), or None if none of the next `tries` is free."""
    for candidate in range(port + 1, min(port + 1 + tries, 65536)):
        try:
            can_listen(host, candidate)
        except OSError:
            continue
        return candidate
    return None


def stop_serving(server, thread: threading.Thread) -> None:
    """Stop accepting, let running requests finish, then close the connections from the
    server's own thread (closing them under its select, or under a worker still writing a
    response, is a race that ends in EBADF)."""
    sockets = getattr(server, "map", None) or server._map
    trigger = getattr(server, "trigger", None)
    running = trigger is not None and thread.is_alive()
    server.accepting = False                              # no new connections
    server.task_dispatcher.shutdown(timeout=5)            # workers finish their requests
    pulled = False
    if running:
        try:
            trigger.pull_trigger(lambda: wasyncore.close_all(sockets))
            pulled = True
        except OSError:                  # the loop ended meanwhile and closed its trigger
            pass
        thread.join(timeout=3)
    if not pulled or thread.is_alive() or not thread.ident:
        wasyncore.close_all(sockets)


class WebServer:
    """The Flask app served by waitress on a background thread; `close` ends it."""

    def __init__(self, session, *, pin: str, panel, host: str, port: int, threads: int,
                 limits: Limits = Limits(), allowed_hosts: tuple[str, ...] = (),
                 panel_open: bool = False, **options):
        """`options`: more of `create_app`'s keyword arguments (buttons, secret_key, pairings,
        logins, table_id, network, table_time, learn_time)."""
        from web import create_app
        self.limits = limits
        self.app = create_app(session, pin=pin, device=panel,
                              max_streams=limits.streams(threads),
                              streams_per_address=limits.streams_per_address,
                              known_streams=limits.known_streams(threads),
                              allowed_hosts=allowed_hosts, panel_open=panel_open,
                              **options)
        self.server = table_server(self.app, host=host, port=port, threads=threads,
                                   limits=limits,
                                   known=self.app.extensions["parlour"].known_addresses.known)
        self.port = getattr(self.server, "effective_port", port)
        self.thread = threading.Thread(target=self.server.run, name="web", daemon=True)

    def start(self) -> None:
        self.thread.start()
        from web import start_background
        start_background(self.app)

    def close(self) -> None:
        """End the live streams, then stop serving (`stop_serving`)."""
        from web import shutdown
        shutdown(self.app)
        stop_serving(self.server, self.thread)
