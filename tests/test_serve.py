"""`t400 serve`: the JSON API answers exactly what the CLI answers, its worker queue and time
cap, and the page driven in a real (headless) Chromium."""

import json
import os
import shutil
import subprocess
import sys
import threading
import time
import urllib.parse

import httpx2 as httpx
import pytest
from click.testing import CliRunner
from conftest import page_app
from starlette.testclient import TestClient

import cli
from web.app import bind, request_args, server, url_of
from web.worker import Busy, KernelWorker

HAND = "AKQ5.KJ4.T93.862"
LOCAL = "http://127.0.0.1"


@pytest.fixture(scope="module")
def client():
    with TestClient(page_app(), base_url=LOCAL) as c:
        yield c


def cli_json(*args):
    r = CliRunner().invoke(cli.cli, [*args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def cli_error(*args):
    r = CliRunner().invoke(cli.cli, list(args))
    assert r.exit_code == 2, r.output
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ")
    return lines[0]


def without_timing(data):
    return {k: v for k, v in data.items() if k not in ("elapsed_s", "compile_s")}


def test_bid_answer_is_the_cli_json_for_the_same_arguments_and_seed(client):
    body = {"hand": HAND, "seat": 2, "bids": [4], "scores": [20, 10, 15, 25], "samples": 4096, "seed": 11}
    r = client.post("/api/bid", json=body)
    assert r.status_code == 200, r.text
    expected = cli_json("bid", HAND, "--seat", "2", "--bids", "4", "--scores", "20,10,15,25",
                        "--samples", "4096", "--seed", "11")  # fmt: skip
    assert without_timing(r.json()) == without_timing(expected)
    assert r.json()["objective"] == "win" and r.json()["bids"][0]["p_win"] is not None


def test_switches_and_flags_reach_the_command(client):
    body = {"hand": HAND, "seat": 3, "bids": [3, 4], "infer": False, "objective": "points", "target": 31,
            "fixed_table_min": True, "samples": 2048, "seed": 2}  # fmt: skip
    r = client.post("/api/bid", json=body)
    assert r.status_code == 200, r.text
    expected = cli_json("bid", HAND, "--seat", "3", "--bids", "3,4", "--no-infer", "--objective", "points",
                        "--target", "31", "--fixed-table-min", "--samples", "2048", "--seed", "2")  # fmt: skip
    assert without_timing(r.json()) == without_timing(expected)
    assert r.json()["infer"] is False and "31" in r.json()["variant"]


def test_a_hand_starting_with_a_void_is_a_hand_not_an_option(client):
    r = client.post("/api/bid", json={"hand": "-.AKQJT98765432.-.-", "samples": 512})
    assert r.status_code == 200, r.text
    assert r.json()["bids"][-1]["p_make"] == 1.0


def test_score_and_rules_answer_the_cli_json(client):
    body = {"scores": [10, 20, 30, 0], "bids": [3, 4, 3, 2], "tricks": [3, 5, 3, 2], "variant": "qahwa"}
    r = client.post("/api/score", json=body)
    assert r.status_code == 200
    assert r.json() == cli_json("score", "--scores", "10,20,30,0", "--bids", "3,4,3,2", "--tricks", "3,5,3,2",
                                "--variant", "qahwa")  # fmt: skip
    r = client.post("/api/rules", json={"variant": "syrian41", "target": 61})
    assert r.status_code == 200
    assert r.json() == cli_json("rules", "--variant", "syrian41", "--target", "61")


def test_tarneeb_score_and_rules_through_the_api(client):
    body = {"game": "tarneeb", "variant": "egyptian", "scores": [20, 35], "declarer": 1, "bid": 8, "tricks": 6,
            "trump": "H", "doubled": True}  # fmt: skip
    r = client.post("/api/score", json=body)
    assert r.status_code == 200
    assert r.json() == cli_json("score", "--game", "tarneeb", "--variant", "egyptian", "--scores", "20,35",
                                "--declarer", "1", "--bid", "8", "--tricks", "6", "--trump", "H", "--doubled")  # fmt: skip
    assert r.json()["winner"] == [2, 4]
    r = client.post("/api/rules", json={"game": "tarneeb", "one_bid_each": True})
    assert r.json()["switches"]["one_bid_each"] is True


@pytest.mark.parametrize(
    "path, body, argv",
    [
        ("/api/bid", {"hand": HAND, "seat": 7}, ["bid", HAND, "--seat", "7"]),
        ("/api/bid", {"hand": "AKQ5.KJ4.T93.86"}, ["bid", "AKQ5.KJ4.T93.86"]),
        ("/api/bid", {"hand": HAND, "model": "magic"}, ["bid", HAND, "--model", "magic"]),
        ("/api/score", {"bids": [3, 4, 3]}, ["score", "--bids", "3,4,3"]),
        ("/api/score", {"bids": [3, 4, 3, 2], "tricks": [3, 5, 3, 9]}, ["score", "--bids", "3,4,3,2", "--tricks", "3,5,3,9"]),
        ("/api/rules", {"variant": "nope"}, ["rules", "--variant", "nope"]),
    ],
)  # fmt: skip
def test_bad_input_is_http_400_with_the_line_the_cli_prints(client, path, body, argv):
    r = client.post(path, json=body)
    assert r.status_code == 400
    assert r.json()["error"] == cli_error(*argv)


@pytest.mark.parametrize(
    "body, message",
    [
        ({"hand": HAND, "plot": "/tmp/x.png"}, "'plot' is not available through the API"),
        ({"hand": HAND, "bidder_model": "m.npz"}, "'bidder_model' is not available"),
        ({"hand": HAND, "colour": "red"}, "unknown field 'colour'; t400 bid takes: "),
        ({"hand": HAND, "samples": True}, "samples: true is not a value"),
        ({"hand": HAND, "infer": "no"}, 'infer: expected true or false, got "no"'),
        ([HAND], "the request body must be a JSON object"),
    ],
)
def test_requests_the_cli_cannot_express_are_refused_by_name(client, body, message):
    r = client.post("/api/bid", json=body)
    assert r.status_code == 400 and r.json()["error"].startswith("Error: ")
    assert message in r.json()["error"]


def test_a_body_that_is_not_json_is_refused(client):
    r = client.post("/api/bid", content=b"{hand: AKQ}", headers={"Content-Type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("Error: the request body is not JSON")


def test_request_args_keeps_option_names_and_negative_switches():
    bid = cli.cli.commands["bid"]
    args = request_args(
        bid, {"hand": HAND, "bids": [3, 4], "seat": 3, "fixed_min_bid": False, "no_infer": True}
    )
    assert args == ["--bids", "3,4", "--seat", "3", "--rising-min-bid", "--no-infer", "--", HAND]
    assert request_args(bid, {"hand": HAND, "samples": None}) == ["--", HAND]


def test_hand_reader_accepts_every_notation_of_the_cli(client):
    for text in (HAND, "S:AKQ5 H:KJ4 D:T93 C:862", "♠AKQ5 ♥KJ4 ♦T93 ♣862"):
        r = client.post("/api/hand", json={"hand": text})
        assert r.status_code == 200
        assert r.json()["dot"] == HAND and r.json()["count"] == 13
        assert r.json()["cards"][:4] == ["SA", "SK", "SQ", "S5"]
    r = client.post("/api/hand", json={"hand": "S:AKQ5 H:KJ4"})  # part of a hand, while picking
    assert r.json()["count"] == 7
    r = client.post("/api/hand", json={"hand": "AKQ5.KJ4"})
    assert r.status_code == 400 and "dot form needs 4" in r.json()["error"]


def test_page_and_its_files_are_served(client):
    page = client.get("/")
    assert page.status_code == 200 and 'id="picker"' in page.text and "/static/app.js" in page.text
    for name in ("app.js", "style.css"):
        assert client.get(f"/static/{name}").status_code == 200
    meta = client.get("/api/meta").json()
    assert set(meta["games"]["400"]["presets"]) == {"dananeer", "qahwa", "syrian41"}
    assert set(meta["games"]["tarneeb"]["presets"]) == {"tarneeb", "tarneeb-dananeer", "egyptian"}
    assert meta["games"]["400"]["choices"]["score_table"] == ["common", "classic", "syrian"]


def blocking_run(release: threading.Event, started: threading.Event):
    def run(name, args, progress):
        started.set()
        release.wait(10)
        return {"name": name}

    return run


def test_worker_runs_one_request_at_a_time_and_refuses_when_the_queue_is_full():
    release, started = threading.Event(), threading.Event()
    worker = KernelWorker(blocking_run(release, started), queue_size=1)
    first = worker.submit("bid", []).future
    assert started.wait(5)
    second = worker.submit("bid", []).future  # waits in the queue
    with pytest.raises(Busy, match="busy"):
        worker.submit("bid", [])
    status = worker.status()
    assert status["busy"] and status["waiting"] == 1
    release.set()
    assert first.result(5) == {"name": "bid"} and second.result(5) == {"name": "bid"}
    assert worker.submit("bid", []).future.result(5) == {"name": "bid"}  # room again
    worker.close()


def test_full_queue_is_http_503_busy():
    release, started = threading.Event(), threading.Event()
    app = page_app(queue_size=0)
    app.state.worker._run = blocking_run(release, started)
    with TestClient(app, base_url=LOCAL) as c:
        results = {}
        t = threading.Thread(
            target=lambda: results.setdefault("first", c.post("/api/bid", json={"hand": HAND}))
        )
        t.start()
        assert started.wait(5)
        r = c.post("/api/bid", json={"hand": HAND})
        assert r.status_code == 503 and r.json()["error"].startswith("Error: the analyzer is busy")
        release.set()
        t.join(10)
        assert results["first"].status_code == 200


def test_sampling_time_is_capped(client):
    app = page_app(max_seconds=1e-6)
    with TestClient(app, base_url=LOCAL) as c:
        r = c.post("/api/bid", json={"hand": HAND, "samples": 16384, "seed": 1})
    assert r.status_code == 400
    assert "more than 1e-06 s, this server's cap" in r.json()["error"]


def test_a_busy_port_is_one_error_line():
    sock = bind("127.0.0.1", 0)
    sock.listen(1)  # a server is there
    port = sock.getsockname()[1]
    try:
        line = cli_error("serve", "--port", str(port))
    finally:
        sock.close()
    assert line == f"Error: cannot listen on 127.0.0.1:{port}: Address already in use"


def test_serve_starts_answers_and_stops_on_ctrl_c():
    proc = subprocess.Popen(
        [sys.executable, "-m", "cli", "serve", "--port", "0"], stderr=subprocess.PIPE, text=True
    )
    try:
        line = proc.stderr.readline()
        assert line.startswith("t400 serve: http://127.0.0.1:"), line
        url = line.split()[2]
        assert httpx.post(url + "api/rules", json={"variant": "qahwa"}, timeout=30).json()["label"] == "qahwa"
    finally:
        proc.send_signal(2)
        assert proc.wait(30) == 0
    assert "stopped" in proc.stderr.read()


# ---------------------------------------------------------------------------------------------
# the page in a real browser

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
CHROMEDRIVER = shutil.which("chromedriver") or "/usr/bin/chromedriver"


@pytest.fixture
def live_url():
    """The app served by uvicorn on a free localhost port, in this process (compiled kernels shared)."""
    sock = bind("127.0.0.1", 0)
    srv = server(page_app(), sock)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 30
    while not srv.started and time.monotonic() < deadline:
        time.sleep(0.05)
    assert srv.started
    yield url_of(sock)
    srv.should_exit = True
    thread.join(15)


def chromium(tmp_path, phone: bool = False):
    """A headless Chromium; ``phone``: a 360 x 740 touch screen (Chrome's mobile emulation)."""
    if not (os.path.exists(CHROMIUM) and os.path.exists(CHROMEDRIVER)):
        reason = f"Chromium ({CHROMIUM}) or chromedriver ({CHROMEDRIVER}) not installed; Debian: apt-get install chromium chromium-driver"
        if os.environ.get("T400_REQUIRE_BROWSER"):
            pytest.fail(reason + " (T400_REQUIRE_BROWSER is set)")
        pytest.skip(reason)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", f"--user-data-dir={tmp_path / 'profile'}",
                 "--window-size=360,740" if phone else "--window-size=1400,1200"):  # fmt: skip
        options.add_argument(flag)
    if phone:
        options.add_experimental_option("mobileEmulation", {"deviceMetrics": {"width": 360, "height": 740,
                                                                              "pixelRatio": 2, "touch": True}})  # fmt: skip
    return webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=options)


def test_page_in_chromium_picks_13_cards_and_shows_the_apis_recommendation(live_url, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    driver = chromium(tmp_path)
    try:
        driver.get(live_url)
        wait = WebDriverWait(driver, 30)
        wait.until(ec.presence_of_element_located((By.CSS_SELECTOR, '[data-card="SA"]')))
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '#variant option[value="dananeer"]'))
        for card in "SA SK SQ S5 HK HJ H4 DT D9 D3 C8 C6 C2".split():
            driver.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
        assert driver.find_element(By.ID, "card-count").text == "13 / 13 cards"
        assert driver.find_element(By.ID, "hand-text").get_attribute("value") == HAND
        Select(driver.find_element(By.ID, "seat")).select_by_value("2")
        driver.find_element(By.ID, "earlier-1").send_keys("4")
        for seat, score in enumerate([20, 10, 15, 25], start=1):
            box = driver.find_element(By.ID, f"score-{seat}")
            box.clear()
            box.send_keys(str(score))
        driver.find_element(By.CSS_SELECTOR, "details summary").click()
        driver.find_element(By.ID, "samples").send_keys("8192")
        seed = driver.find_element(By.ID, "seed")
        seed.clear()
        seed.send_keys("5")
        driver.find_element(By.CSS_SELECTOR, "details summary").click()
        driver.find_element(By.ID, "ask").click()
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "bid-result")))
        assert driver.find_element(By.ID, "bid-error").text == ""
        shown = int(driver.find_element(By.ID, "recommended-bid").text)
        body = {"hand": HAND, "seat": 2, "scores": [20, 10, 15, 25], "bids": [4], "variant": "dananeer",
                "samples": 8192, "seed": 5}  # fmt: skip
        api = httpx.post(live_url + "api/bid", json=body, timeout=120).json()
        assert shown == api["recommended"]
        reasons = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#reasons li")]
        assert reasons and reasons == [x["text"] for x in api["reasons"]]  # the reason in words, under the answer
        marked = driver.find_element(By.CSS_SELECTOR, "#bid-table tr.recommended")
        assert marked.get_attribute("data-bid") == str(api["recommended"])
        assert len(driver.find_elements(By.CSS_SELECTOR, "#chart rect.bar")) == 14
        assert "P(win match)" in driver.find_element(By.ID, "bid-table").text
        command = driver.find_element(By.ID, "command").get_attribute("textContent")
        assert command.startswith(f"t400 bid {HAND} --seat 2 --scores 20,10,15,25 --bids 4")
        assert (
            cli_json(*command.split()[1:])["recommended"] == shown
        )  # the shown command is the same question
        driver.save_screenshot(str(tmp_path / "serve.png"))
        if os.environ.get("T400_SCREENSHOT"):  # README's picture: T400_SCREENSHOT=docs/serve.png
            driver.save_screenshot(os.environ["T400_SCREENSHOT"])
        # score a classic Tarneeb hand: seats 2+4 bid 9 and take 10
        driver.find_element(By.CSS_SELECTOR, '.tab[data-page="score"]').click()
        Select(driver.find_element(By.ID, "score-game")).select_by_value("tarneeb")
        Select(driver.find_element(By.ID, "t-declarer")).select_by_value("2")
        for box, value in (("t-bid", "9"), ("t-tricks", "10")):
            driver.find_element(By.ID, box).clear()
            driver.find_element(By.ID, box).send_keys(value)
        driver.find_element(By.ID, "score-go").click()
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#score-table-result"))
        result = driver.find_element(By.ID, "score-result").text
        assert "made with 10 tricks" in result and "+10" in result, result
        # the rules of Egyptian Tarneeb
        driver.find_element(By.CSS_SELECTOR, '.tab[data-page="rules"]').click()
        Select(driver.find_element(By.ID, "rules-variant")).select_by_value("egyptian")
        wait.until(lambda d: "Variant egyptian" in d.find_element(By.ID, "rules-result").text)
        assert "NT" in driver.find_element(By.ID, "rules-result").text
    finally:
        driver.quit()


@pytest.mark.slow  # compiles the Tarneeb call analyzer (about a minute; run with -m slow)
def open_tab(driver, live_url: str, page: str) -> None:
    """Load the page, wait until its script has filled the variant lists, and open tab ``page``."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver.get(live_url)
    wait = WebDriverWait(driver, 30)
    wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, '#call-variant option[value="egyptian"]'))
    driver.find_element(By.CSS_SELECTOR, f'.tab[data-page="{page}"]').click()
    wait.until(ec.visibility_of_element_located((By.ID, f"page-{page}")))


def test_tarneeb_page_in_chromium_shows_the_apis_call(live_url, tmp_path):
    """The "Tarneeb: what to call" page: a typed hand, seat 2 after seat 1's pass, team scores;
    the call shown is /api/bid's, the strain and call tables are drawn, and the command line shown
    gives the same call."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import Select, WebDriverWait

    hand = "A5.AKQJ9843.K3.2"
    driver = chromium(tmp_path)
    try:
        open_tab(driver, live_url, "call")
        driver.find_element(By.ID, "call-hand").send_keys(hand)
        Select(driver.find_element(By.ID, "call-seat")).select_by_value("2")
        driver.find_element(By.ID, "call-auction").send_keys("pass")
        for box, value in (("call-score-1", "25"), ("call-score-2", "28")):
            driver.find_element(By.ID, box).clear()
            driver.find_element(By.ID, box).send_keys(value)
        driver.find_element(By.CSS_SELECTOR, "#call-form details summary").click()
        driver.find_element(By.ID, "call-samples").send_keys("2048")
        seed = driver.find_element(By.ID, "call-seed")
        seed.clear()
        seed.send_keys("5")
        driver.find_element(By.ID, "call-ask").click()
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "call-result")))
        assert driver.find_element(By.ID, "call-error").text == ""
        body = {"game": "tarneeb", "hand": hand, "seat": 2, "variant": "tarneeb", "auction": ["pass"],
                "scores": [25, 28], "samples": 2048, "seed": 5}  # fmt: skip
        api = httpx.post(live_url + "api/bid", json=body, timeout=120).json()
        assert (
            driver.find_element(By.ID, "recommended-call").text
            == f"{api['recommended']}, naming {api['trump']}"
        )
        marked = driver.find_element(By.CSS_SELECTOR, "#call-table tr.recommended")
        assert marked.get_attribute("data-call") == api["recommended"]
        assert len(driver.find_elements(By.CSS_SELECTOR, "#strain-table tbody tr")) == 5
        assert "P(win match)" in driver.find_element(By.ID, "call-table").text
        command = driver.find_element(By.ID, "call-command").get_attribute("textContent")
        assert command.startswith(f"t400 bid {hand} --game tarneeb --seat 2 --variant tarneeb --auction pass")
        assert cli_json(*command.split()[1:])["recommended"] == api["recommended"]
        driver.save_screenshot(str(tmp_path / "serve-tarneeb.png"))
        if os.environ.get("T400_SCREENSHOT_TARNEEB"):  # README's picture: docs/serve-tarneeb.png
            driver.save_screenshot(os.environ["T400_SCREENSHOT_TARNEEB"])
    finally:
        driver.quit()


REVIEW_RECORD = ("game 400; variant dananeer; scores 0,0,0,0; deal AKQ5.KJ4.T93.862 JT9.AQ7.KQ5.AKQ3 "
                 "8743.T986.A76.T9 62.532.J842.J754; bids 3,5,2,2; play SA S9 S3 S2 SK ST S4 S6 SQ SJ S7 H2")  # fmt: skip


def test_review_answers_the_cli_json_and_refuses_a_bad_record_in_one_line(client):
    r = client.post("/api/review", json={"record": REVIEW_RECORD, "samples": 2000, "seed": 1, "layouts": 0})
    assert r.status_code == 200, r.text
    untimed = lambda data: json.loads(json.dumps(data), object_hook=without_timing)  # noqa: E731
    assert untimed(r.json()) == untimed(cli_json("review", REVIEW_RECORD, "--samples", "2000", "--seed", "1", "--layouts", "0"))
    bad = client.post("/api/review", json={"record": REVIEW_RECORD.replace("S4 S6", "S4 H6")})
    assert bad.status_code == 400
    assert bad.json()["error"] == cli_error("review", REVIEW_RECORD.replace("S4 S6", "S4 H6"))
    assert client.post("/api/review", json={"path": "/etc/passwd"}).status_code == 400


def test_review_tab_in_chromium_marks_the_costly_cards_of_the_api(live_url, tmp_path):
    """The "Review a hand" tab: a pasted record, its bidding verdicts and the trick-by-trick
    view with the costly cards marked, the same as /api/review's."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium(tmp_path)
    try:
        open_tab(driver, live_url, "review")
        driver.find_element(By.ID, "review-record").send_keys(REVIEW_RECORD)
        driver.find_element(By.ID, "review-samples").send_keys("500")
        driver.find_element(By.ID, "review-go").click()
        WebDriverWait(driver, 300).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#review-tricks"))
        assert driver.find_element(By.ID, "review-error").text == ""
        api = httpx.post(live_url + "api/review", json={"record": REVIEW_RECORD, "samples": 500}, timeout=120).json()
        verdicts = [row.find_elements(By.TAG_NAME, "td")[-1].text
                    for row in driver.find_elements(By.CSS_SELECTOR, "#review-bids tbody tr")]  # fmt: skip
        assert verdicts == [b["verdict"] for b in api["bidding"]]
        marked = [e.text.lstrip("*") for e in driver.find_elements(By.CSS_SELECTOR, "#review-tricks .trick-card.costly")]
        symbols = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
        assert marked == [symbols[c["card"][0]] + c["card"][1] for c in api["cards"] if c["cost"] > 0]
        assert marked, "the record's first cards include costly ones (the spade ace led at trick 1)"
        assert len(driver.find_elements(By.CSS_SELECTOR, "#review-tricks tbody tr")) == 3
        assert "bad luck" in driver.find_element(By.ID, "review-tricks").text  # the lead: DD cost, not a mistake
        # "what now?": the last card's player (seat 4, out of spades) asked from their seat
        driver.find_elements(By.CSS_SELECTOR, "#review-tricks button.trick-card")[-1].click()
        WebDriverWait(driver, 120).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#card-table tbody tr"))
        card = httpx.post(live_url + "api/card", json={"record": REVIEW_RECORD, "at": 11}, timeout=120).json()
        shown = [row.find_element(By.TAG_NAME, "th").text.lstrip("*")
                 for row in driver.find_elements(By.CSS_SELECTOR, "#card-table tbody tr")]  # fmt: skip
        assert shown == [c["card"] for c in card["cards"]] and card["seat"] == 4
        driver.save_screenshot(str(tmp_path / "serve-review.png"))
        if os.environ.get("T400_SCREENSHOT_REVIEW"):  # docs' picture: docs/serve-review.png
            driver.save_screenshot(os.environ["T400_SCREENSHOT_REVIEW"])
    finally:
        driver.quit()


def test_manifest_and_icons_make_the_page_installable(client):
    manifest = client.get("/static/manifest.json").json()
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/"
    sizes = set()
    for icon in manifest["icons"]:
        r = client.get(icon["src"])
        assert r.status_code == 200 and r.headers["content-type"] == "image/png"
        width, height = int.from_bytes(r.content[16:20], "big"), int.from_bytes(r.content[20:24], "big")
        assert icon["sizes"] == f"{width}x{height}"
        sizes.add(width)
    assert {192, 512} <= sizes
    page = client.get("/").text
    assert '<link rel="manifest" href="/static/manifest.json">' in page and 'name="viewport"' in page


def test_page_on_a_phone_shows_the_whole_picker_and_the_answer_without_sideways_scrolling(live_url, tmp_path):
    """At 360 x 740 every card of the picker is on screen, the page never scrolls sideways, and
    the recommended bid shows within the screen's width."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    driver = chromium(tmp_path, phone=True)
    try:
        open_tab(driver, live_url, "bid")
        width = driver.execute_script("return window.innerWidth")
        assert width == 360
        inside = "const r = arguments[0].getBoundingClientRect(); return [r.left, r.right, r.width, r.height];"
        for button in driver.find_elements(By.CSS_SELECTOR, "#picker .card"):
            left, right, w, h = driver.execute_script(inside, button)
            assert 0 <= left and right <= width and w >= 30 and h >= 36, (button.get_attribute("data-card"), left, right)
        for card in "SA SK SQ S5 HK HJ H4 DT D9 D3 C8 C6 C2".split():
            driver.find_element(By.CSS_SELECTOR, f'[data-card="{card}"]').click()
        driver.find_element(By.CSS_SELECTOR, "details summary").click()
        driver.find_element(By.ID, "samples").send_keys("4096")
        driver.find_element(By.ID, "ask").click()
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "bid-result")))
        left, right, _, _ = driver.execute_script(inside, driver.find_element(By.ID, "recommended-bid"))
        assert 0 <= left and right <= width
        assert driver.execute_script("return document.documentElement.scrollWidth") <= width
        driver.execute_script("document.getElementById('bid-result').scrollIntoView()")
        driver.save_screenshot(str(tmp_path / "serve-phone.png"))
        if os.environ.get("T400_SCREENSHOT_PHONE"):  # docs' picture: docs/serve-phone.png
            driver.save_screenshot(os.environ["T400_SCREENSHOT_PHONE"])
    finally:
        driver.quit()



def test_a_shared_link_asks_the_same_question_and_shows_the_same_answer(live_url, tmp_path):
    """Asking fills the page's link with the question; opening that link in a new browser asks
    it again (same hand, seat, scores, bids, options and seed) and shows the same answer."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    body = {"hand": HAND, "seat": 3, "scores": [10, 25, 5, 0], "bids": [4, 3], "variant": "qahwa", "samples": 4096,
            "seed": 11}  # fmt: skip
    api = httpx.post(live_url + "api/bid", json=body, timeout=120).json()
    link = f"{live_url}?q={urllib.parse.quote(json.dumps(body))}"
    for _ in range(2):  # the link as built here, then the page's own link to the answer it shows
        driver = chromium(tmp_path)
        try:
            driver.get(link)
            WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "bid-result")))
            assert driver.find_element(By.ID, "bid-error").text == ""
            assert int(driver.find_element(By.ID, "recommended-bid").text) == api["recommended"]
            reasons = [li.text for li in driver.find_elements(By.CSS_SELECTOR, "#reasons li")]
            assert reasons == [x["text"] for x in api["reasons"]]
            assert driver.find_element(By.ID, "seat").get_attribute("value") == "3"
            assert driver.find_element(By.ID, "earlier-2").get_attribute("value") == "3"
            link = driver.find_element(By.ID, "share-link").get_attribute("value")
            assert json.loads(urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["q"][0]) == body
        finally:
            driver.quit()


def test_a_shared_tarneeb_link_asks_the_same_call_question(live_url, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    body = {"game": "tarneeb", "hand": "A5.AKQJ9843.K3.2", "seat": 2, "variant": "tarneeb", "auction": ["pass"],
            "scores": [12, 20], "samples": 2048, "seed": 4}  # fmt: skip
    api = httpx.post(live_url + "api/bid", json=body, timeout=120).json()
    driver = chromium(tmp_path)
    try:
        driver.get(f"{live_url}?q={urllib.parse.quote(json.dumps(body))}")
        WebDriverWait(driver, 300).until(ec.visibility_of_element_located((By.ID, "call-result")))
        assert driver.find_element(By.ID, "call-error").text == ""
        assert driver.find_element(By.ID, "recommended-call").text.startswith(api["recommended"])
        assert driver.find_element(By.ID, "call-auction").get_attribute("value") == "pass"
        link = driver.find_element(By.ID, "call-share-link").get_attribute("value")
        assert json.loads(urllib.parse.parse_qs(urllib.parse.urlparse(link).query)["q"][0]) == body
    finally:
        driver.quit()

