"""The native module of the ``threads-echo`` test game, in Python (the problems are ``threads_echo_plugin.Problem``)."""

__version__ = "0.1"


def manifest():
    from searchkit.protocol import PROTOCOL

    return {"protocol": PROTOCOL, "game": "threads-echo", "version": __version__, "profile": "release",
            "components": [{"kind": "algorithm", "name": "bfs", "params": []},
                           {"kind": "algorithm", "name": "astar", "params": []},
                           {"kind": "heuristic", "name": "steps-left", "params": []}]}
