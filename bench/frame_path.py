"""Server CPU per move's frames: the writer task (ASGI send) against ``send_now``, in one process.

One uvicorn server with the room's WebSocket protocol (``sockets.uvicorn_config``); ``--groups``
groups of four client sockets (``bench/ws_client.py``). Each socket is served by two
``Connection``s, one on the ASGI path (``app.Frames``) and one writing straight to the transport
(``app.DirectFrames``). A frame from a group's first socket makes the server queue a frame of
``--size`` bytes for each of the four, through one kind of connection or the other; the client
sends the next when all four have arrived. Blocks of ``--moves`` moves alternate between the two
kinds (a b b a a b …), and the server's process CPU per move is printed for each block and as
medians: the machine's drift falls on both alike.

    .venv/bin/python bench/frame_path.py --rounds 16
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import time
from typing import Any

from feltroom.server.local_service import free_port
from ws_client import WsClient, connect


def serve(port: int, size: int) -> None:
    import uvicorn
    from starlette.websockets import WebSocket

    from feltroom.server import Limits
    from feltroom.server.address import TrustedProxies
    from feltroom.server.app import DirectFrames, Frames
    from feltroom.server.connection import Connection
    from feltroom.server.sockets import uvicorn_config

    limits = Limits(rate=1e9, burst=1e9, max_tcp_per_address=10_000, max_tcp_connections=10_000)
    payload = "x" * size
    groups: dict[bytes, list[tuple[Connection, Connection]]] = {}
    mode = ["a"]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] == "lifespan":
            while (await receive())["type"] != "lifespan.shutdown":
                await send({"type": "lifespan.startup.complete"})
            await send({"type": "lifespan.shutdown.complete"})
            return
        ws = WebSocket(scope, receive, send)
        await ws.accept()
        pair = (Connection(Frames(ws, receive, send), limits, 0.0, "bench"),
                Connection(DirectFrames(ws, receive, send, scope["extensions"]["feltroom.send_now"]), limits, 0.0,
                           "bench"))
        writers = [asyncio.get_running_loop().create_task(c.writer()) for c in pair]
        group = groups.setdefault(scope["query_string"], [])
        group.append(pair)
        while True:
            msg = await receive()
            if msg["type"] == "websocket.disconnect":
                for w in writers:
                    w.cancel()
                return
            text = msg["text"]
            if text.startswith("stat"):  # the next blocks' kind; the CPU so far
                mode[0] = text[4:]
                await send({"type": "websocket.send", "text": repr(time.process_time())})
                continue
            kind = 0 if mode[0] == "a" else 1
            for member in group:
                member[kind].send(payload)

    uvicorn.Server(uvicorn_config(app, limits, TrustedProxies(()), port=port, log_level="error")).run()


async def measure(port: int, groups: int, moves: int, rounds: int) -> None:
    loop = asyncio.get_running_loop()
    pending = [0] * groups
    done_moves = [0]
    state: dict[str, Any] = {}
    sockets: list[list[WsClient]] = []

    def on_frame(g: int) -> Any:
        def frame(data: bytes) -> None:
            pending[g] -= 1
            if pending[g]:
                return
            done_moves[0] += 1
            if done_moves[0] < moves:
                pending[g] = 4
                sockets[g][0].send_text("m")
            elif not any(pending) and not state["done"].done():
                state["done"].set_result(None)
        return frame

    for g in range(groups):
        sockets.append([await connect("127.0.0.1", port, f"/ws?g{g}", on_frame(g)) for _ in range(4)])
    control = await connect("127.0.0.1", port, "/ws?control", lambda data: state["stat"].set_result(float(data)))

    async def stat(kind: str) -> float:
        state["stat"] = loop.create_future()
        control.send_text("stat" + kind)
        cpu: float = await state["stat"]
        return cpu

    results: dict[str, list[float]] = {"a": [], "b": []}
    for r in range(rounds):
        kind = "ab"[r % 2] if r % 4 < 2 else "ba"[r % 2]  # a b b a a b b a …
        before = await stat(kind)
        done_moves[0] = 0
        state["done"] = loop.create_future()
        for g in range(groups):
            pending[g] = 4
            sockets[g][0].send_text("m")
        await state["done"]
        per_move = (await stat(kind) - before) / done_moves[0] * 1e6
        results[kind].append(per_move)
        name = "writer task" if kind == "a" else "send_now"
        print(f"block {r + 1:2}: {name:11} {per_move:6.1f} µs a move", flush=True)
    for kind, name in (("a", "writer task (ASGI send)"), ("b", "send_now")):
        values = sorted(results[kind])
        print(f"{name}: median {values[len(values) // 2]:.1f} µs a move, {values[0]:.1f}–{values[-1]:.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--groups", type=int, default=50)
    parser.add_argument("--moves", type=int, default=6000, help="moves a block")
    parser.add_argument("--rounds", type=int, default=16, help="blocks, the two kinds alternating")
    parser.add_argument("--size", type=int, default=1600, help="bytes of each frame out")
    args = parser.parse_args()
    port = free_port()
    server = multiprocessing.Process(target=serve, args=(port, args.size), daemon=True)
    server.start()
    time.sleep(3)
    try:
        asyncio.run(measure(port, args.groups, args.moves, args.rounds))
    finally:
        server.terminate()


if __name__ == "__main__":
    main()
