"""Memory stays bounded: matches leave memory over a cap (least recently used first) or when
idle, and come back from the database when asked for, which a client cannot tell."""

from __future__ import annotations

import time
from pathlib import Path

from fastapi.testclient import TestClient

from henderson.server import create_app
from tests.server.conftest import act, auth, seat, wait_for


def test_many_matches_keep_memory_bounded_and_evicted_ones_play_on(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}", max_live=4)
    hub = app.state.hub
    with TestClient(app, raise_server_exceptions=False) as client:
        made = []
        for _ in range(12):
            response = client.post("/api/matches", json={"game": "toy", "hotseat": True})
            assert response.status_code == 201
            made.append(response.json())
            assert len(hub.live) <= 4
        assert hub.evictions >= 8
        first = made[0]
        assert first["match"] not in hub.live
        red, blue = first["seats"]["red"], first["seats"]["blue"]
        before = seat(client, red)
        assert act(client, red, "hold", 0).status_code == 200  # loaded again, and it plays
        assert first["match"] in hub.live and len(hub.live) <= 4
        for other in made[1:6]:  # push it out again
            seat(client, other["seats"]["red"])
        assert first["match"] not in hub.live
        after = seat(client, blue)
        assert after["ply"] == 1 and after["your_turn"] and [e["action"] for e in after["log"]] == ["hold"]
        assert after["dice"]["commitment"] == before["dice"]["commitment"]
        assert act(client, blue, "hold", 1).status_code == 200
        assert seat(client, red)["steps"] == 2


def test_an_idle_match_leaves_memory_but_one_with_a_listener_stays(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}", idle_seconds=0.05)
    hub = app.state.hub
    with TestClient(app, raise_server_exceptions=False) as client:
        watched = client.post("/api/matches", json={"game": "toy", "hotseat": True}).json()
        idle = client.post("/api/matches", json={"game": "toy", "hotseat": True}).json()
        with client.websocket_connect("/api/ws") as ws:
            ws.send_json({"token": watched["seats"]["red"]})
            ws.receive_json()
            time.sleep(0.1)
            client.post("/api/matches", json={"game": "toy", "hotseat": True})
            assert idle["match"] not in hub.live
            assert watched["match"] in hub.live  # someone listens: it stays
            assert act(client, watched["seats"]["red"], "hold", 0).status_code == 200
            assert ws.receive_json()["ply"] == 1
        response = client.get("/api/seat", headers=auth(idle["seats"]["red"]))
        assert response.status_code == 200 and response.json()["ply"] == 0


def test_a_match_whose_computer_player_thinks_is_not_evicted(tmp_path: Path) -> None:
    app = create_app(f"sqlite:///{tmp_path / 'games.sqlite'}", max_live=1, agent_delay=0.2)
    hub = app.state.hub
    with TestClient(app, raise_server_exceptions=False) as client:
        busy = client.post("/api/matches", json={"game": "toy", "players": {"red": "holder", "blue": "holder"}}).json()
        client.post("/api/matches", json={"game": "toy", "hotseat": True})
        assert busy["match"] in hub.live  # its computer players are playing
        wait_for(lambda: busy["match"] in hub.live and hub.live[busy["match"]].state.ply >= 2, "two computer moves")
